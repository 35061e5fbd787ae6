package dev.nona.controller.outcome;

import dev.nona.calibration.PartObservation;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.StageAssignment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of an outcome as {@link PartObservation}s: each part's tasks are its {@code tasks} when the executor
 * lists them, else every stage its decision put on the part's server. Their ops are the catalog's task ops
 * summed; unknown (NaN) when the model or a task is not in the catalog, and when the part lists no tasks while
 * another part of the same request ran on the same server (the stages cannot be told apart).
 */
final class OutcomeParts {
    private OutcomeParts() {}

    /**
     * @param taskOps the model's task ops by task id, or {@code null} when the catalog does not hold the model
     */
    static List<PartObservation> of(PlacementDecision decision, PlacementOutcome outcome, Map<String, Double> taskOps) {
        Map<String, Integer> partsPerServer = new HashMap<>();
        for (OutcomePart p : outcome.parts()) {
            partsPerServer.merge(p.server(), 1, Integer::sum);
        }
        List<PartObservation> parts = new ArrayList<>(outcome.parts().size());
        for (OutcomePart p : outcome.parts()) {
            double ops;
            if (p.tasks() != null) {
                ops = ops(p.tasks(), taskOps);
            } else if (partsPerServer.get(p.server()) > 1) {
                ops = Double.NaN;
            } else {
                ops = ops(stagesOn(decision, p.server()), taskOps);
            }
            parts.add(new PartObservation(p.server(), ops, (p.finishedAt() - p.startedAt()) / 1000.0,
                    p.computeSeconds(), p.cold()));
        }
        return parts;
    }

    private static List<String> stagesOn(PlacementDecision decision, String server) {
        List<String> tasks = new ArrayList<>();
        for (StageAssignment s : decision.stages()) {
            if (s.server().equals(server)) {
                tasks.add(s.task());
            }
        }
        return tasks;
    }

    private static double ops(List<String> tasks, Map<String, Double> taskOps) {
        if (taskOps == null || tasks.isEmpty()) {
            return Double.NaN;
        }
        double sum = 0;
        for (String t : tasks) {
            Double ops = taskOps.get(t);
            if (ops == null) {
                return Double.NaN;
            }
            sum += ops;
        }
        return sum;
    }
}
