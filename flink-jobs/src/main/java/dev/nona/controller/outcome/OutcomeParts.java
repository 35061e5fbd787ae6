package dev.nona.controller.outcome;

import dev.nona.calibration.PartObservation;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.PlacementOutcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of an outcome as {@link PartObservation}s. A part's ops are the catalog's task ops of its
 * {@code tasks} when the executor lists them, else those of every stage its decision put on the part's server
 * ({@link DecisionSummary#opsPerServer()}); unknown (NaN) when the model or a task is not in the catalog, and when
 * the part lists no tasks while another part of the same request ran on the same server (the stages cannot be
 * told apart).
 */
final class OutcomeParts {
    private OutcomeParts() {}

    /**
     * @param taskOps the model's task ops by task id, or {@code null} when the catalog does not hold the model
     */
    static List<PartObservation> of(DecisionSummary decision, PlacementOutcome outcome, Map<String, Double> taskOps) {
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
                ops = decision.opsPerServer().getOrDefault(p.server(), Double.NaN);
            }
            parts.add(new PartObservation(p.server(), ops, (p.finishedAt() - p.startedAt()) / 1000.0,
                    p.computeSeconds(), p.cold()));
        }
        return parts;
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
