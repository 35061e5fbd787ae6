package dev.nona.controller.placement;

import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The models a placement subtask found unplaceable (policy-model's {@code Placeability}: a task larger than every
 * live server's memory), so that each gets one {@code MODEL_UNPLACEABLE} event when it becomes so, not one per
 * request; a model placed again may be reported again later. Not thread-safe (the task thread's).
 */
final class UnplaceableModels {
    private final Set<String> reported = new HashSet<>();

    /**
     * The event's details when {@code placement}'s model is unplaceable on {@code servers} and was not reported since
     * it last was placeable, else null.
     */
    Map<String, Object> newlyUnplaceable(ControllerPlacement placement, LiveServers servers, int subtask) {
        if (!reported.add(placement.model())) {
            return null;
        }
        Map<String, Object> d = new TreeMap<>();
        d.put("model", placement.model());
        d.put("task", placement.tasks().get(placement.largestTask()));
        d.put("taskBytes", placement.largestTaskBytes());
        d.put("largestMemoryBytes", servers.largestLiveMemoryBytes());
        d.put("subtask", subtask);
        return d;
    }

    /** A request of {@code model} was placed: it is placeable again. $O(1)$, nothing allocated. */
    void placed(String model) {
        if (!reported.isEmpty()) {
            reported.remove(model);
        }
    }
}
