package dev.nona.controller.placement;

import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementExplanation;
import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Turns policy-model's {@link PlacementExplanation} of the latest request (server indices) into the decision's
 * {@link DecisionExplanation} (server ids). Backlogs are rounded to microseconds (shorter JSON, written without
 * allocating; the ledger's prediction is not that precise), and the decision's predicted JCT is
 * {@code tableJctSeconds + waitSeconds} rounded to microseconds. In the compact form every part names its tasks.
 */
public final class DecisionExplanations {
    private DecisionExplanations() {
    }

    /**
     * @param tasks   the placer's task ids, in {@link PlacementExplanation#partOf}'s order
     * @param compact whether parts name their tasks ({@code decisions.format=compact})
     */
    public static DecisionExplanation of(PlacementExplanation why, LiveServers servers, List<String> tasks, boolean compact) {
        int n = why.parts();
        String[][] partTasks = compact ? tasksByPart(why, tasks) : null;
        DecisionPart[] parts = new DecisionPart[n];
        double wait = 0;
        for (int p = 0; p < n; p++) {
            double backlog = micros(why.predictedBacklogSeconds(p));
            wait = Math.max(wait, backlog);
            parts[p] = why.described()
                    ? new DecisionPart(servers.id(why.server(p)), why.stages(p), compact ? List.of(partTasks[p]) : null,
                            why.warm(p), backlog, why.ongoingRequests(p), why.targetMet(p), why.serverClass(p),
                            why.coldStart(p), micros(why.coldStartSeconds(p)))
                    : new DecisionPart(servers.id(why.server(p)), why.stages(p), compact ? List.of(partTasks[p]) : null,
                            why.warm(p), backlog, why.ongoingRequests(p), why.targetMet(p));
        }
        Integer[] choices = new Integer[why.choiceCount()];
        for (int g = 0; g < choices.length; g++) {
            choices[g] = why.choice(g);
        }
        // a product over hundreds of subgraphs could underflow to 0; the record wants (0, 1]
        double probability = Math.max(Double.MIN_VALUE, Math.min(1, why.choiceProbability()));
        return new DecisionExplanation(List.of(parts), List.of(choices), probability, why.tableJctSeconds(), wait);
    }

    /**
     * Places one request with {@code placer} and returns its decision as the placement operator writes it: stages
     * (none when {@code compact}), explanation, the request's own predicted JCT.
     */
    public static PlacementDecision decide(RequestPlacer placer, LiveServers servers, String requestId, String tenant,
            long tableVersion, boolean fallback, long eventTime, RandomGenerator rng, boolean compact) {
        List<StageAssignment> stages = placer.place(servers, eventTime, rng);
        DecisionExplanation why = of(placer.explanation(), servers, placer.tasks(), compact);
        return PlacementDecision.of(requestId, placer.model(), tenant, tableVersion, fallback, compact ? null : stages,
                predictedJctSeconds(why), eventTime, why);
    }

    /**
     * The decision's predicted JCT for {@code e}: the table's (or local compute's) plus the longest backlog, rounded
     * to microseconds (like the backlogs: the decision writer then writes it without allocating).
     */
    public static double predictedJctSeconds(DecisionExplanation e) {
        return micros(e.tableJctSeconds() + e.waitSeconds());
    }

    private static String[][] tasksByPart(PlacementExplanation why, List<String> tasks) {
        String[][] out = new String[why.parts()][];
        int[] filled = new int[out.length];
        for (int p = 0; p < out.length; p++) {
            out[p] = new String[why.stages(p)];
        }
        for (int t = 0; t < why.tasks(); t++) {
            int p = why.partOf(t);
            out[p][filled[p]++] = tasks.get(t);
        }
        return out;
    }

    private static double micros(double seconds) {
        return Math.round(seconds * 1e6) / 1e6;
    }
}
