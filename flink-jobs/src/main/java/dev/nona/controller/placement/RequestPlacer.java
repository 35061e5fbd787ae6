package dev.nona.controller.placement;

import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementExplanation;
import dev.nona.topics.record.StageAssignment;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Places one request of one model: a target server for every original task of its DAG. Built once per table
 * version and model; {@link #place} is the per-request hot path.
 */
public interface RequestPlacer {
    /**
     * A server for every original task, in the DAG's task order, for a request of event time {@code eventTime}
     * (epoch ms); records the request's work in {@code servers}' ledger.
     */
    List<StageAssignment> place(LiveServers servers, long eventTime, RandomGenerator rng);

    /** The model it places (one shared string, so decisions name it without a copy per request). */
    String model();

    /**
     * The cost model's predicted job completion time in seconds, without backlog: the table's $\tau_j$, or for a local
     * placer its latest request's compute on the server it was given (policy-model's {@code ControllerPlacement}).
     */
    double predictedJctSeconds();

    /** Why the latest {@link #place} placed as it did (reused: read it before the next request). */
    PlacementExplanation explanation();

    /** The original task ids, in {@link #place}'s order. */
    List<String> tasks();

    /**
     * The placement it runs (policy-model's), for the rules that judge the model as a whole (its memory); null for a
     * placer that runs none (tests).
     */
    default ControllerPlacement placement() {
        return null;
    }
}
