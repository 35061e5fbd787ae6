package dev.nona.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * {@code kill -9} of the TaskManager that runs the controller job ({@link ControllerOnCluster}); Flink restarts the
 * job from its latest checkpoint on the TaskManager left. The fault ends at the kill. Decisions of the restarted job
 * are those written from the start of its tasks on (the job's vertices' {@code start-time} after the kill, from the
 * JobManager's REST API): the tasks on the surviving TaskManager may still write for a moment after the kill, before
 * they are cancelled.
 */
public final class TaskManagerKill implements Fault {
    private final ControllerOnCluster controller;
    private int killed = -1;

    public TaskManagerKill(ControllerOnCluster controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public String name() {
        return "taskmanager-kill";
    }

    @Override
    public Window inject() {
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        killed = controller.cluster().killTaskManagerRunning(controller.job());
        return Window.endingNow(start, startMillis);
    }

    /** The index of the TaskManager killed (-1 before {@link #inject}). */
    public int killed() {
        return killed;
    }

    /** The earliest start of the job's tasks after the kill (the restarted job's), else the fault's end. */
    @Override
    public long recoveredFromEpochMillis(Window w) {
        String job = controller.job().toHexString();
        long earliest = Long.MAX_VALUE;
        JsonNode details = controller.cluster().rest().get("/jobs/" + job).orElse(null);
        if (details != null) {
            for (JsonNode v : details.path("vertices")) {
                long t = v.path("start-time").asLong(-1);
                if (t >= w.startEpochMillis()) {
                    earliest = Math.min(earliest, t);
                }
            }
        }
        return earliest == Long.MAX_VALUE ? w.endEpochMillis() : earliest;
    }
}
