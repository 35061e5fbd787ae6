package dev.nona.controller.outcome;

import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.Objects;

/**
 * What the outcome join keeps of a decision while it waits for its outcome: a few numbers instead of every stage
 * (a decision names every task of its model, up to thousands), so that the join's state does not grow with the
 * models' size.
 *
 * @param requestId           the request id
 * @param model               its model
 * @param tableVersion        the table it was sampled from
 * @param predictedJctSeconds the predicted JCT $\tau_j$ of the table (a decision's {@code explanation.tableJctSeconds};
 *                            its {@code predictedJctSeconds} without one): calibration compares observed JCT with
 *                            the cost model's, not with the per-request figure that adds the predicted backlog
 * @param opsPerServer        per server of the decision, the catalog ops of the stages it was given; absent when
 *                            the catalog did not know a task or the model (copied)
 */
public record DecisionSummary(String requestId, String model, long tableVersion, double predictedJctSeconds,
        Map<String, Double> opsPerServer) {
    public DecisionSummary {
        Objects.requireNonNull(requestId, "request id");
        Objects.requireNonNull(model, "model");
        opsPerServer = Map.copyOf(opsPerServer);
    }

    /** The summary of {@code d}, with per-server ops from the model's task ops ({@code null}: not in the catalog). */
    public static DecisionSummary of(PlacementDecision d, Map<String, Double> taskOps) {
        Map<String, Double> ops = new HashMap<>(4);
        Set<String> unknown = new HashSet<>(2);
        for (StageAssignment s : d.placedStages()) {
            Double taskOp = taskOps == null ? null : taskOps.get(s.task());
            if (taskOp == null) {
                unknown.add(s.server());
            } else {
                ops.merge(s.server(), taskOp, Double::sum);
            }
        }
        ops.keySet().removeAll(unknown);
        double tau = d.tableJctSeconds();
        return new DecisionSummary(d.requestId(), d.model(), d.tableVersion(), tau, ops);
    }
}
