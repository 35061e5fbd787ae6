package dev.nona.controller.placement;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementExplanation;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.record.StageAssignments;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The safe fallback: no distribution, every task of a request on one server (warm first). Nothing crosses the
 * link, so it is always stable; it is what the controller uses before its first table and when the load is
 * infeasible ($\rho \ge 1$ under every table). The server and the predicted JCT (the DAG's total compute on the
 * chosen server, $\sum_t p^t / \nu_s$) are policy-model's {@link ControllerPlacement#local}'s; this adapter turns
 * them into stage assignments.
 * Not thread safe (one per operator instance).
 */
public final class LocalPlacer implements RequestPlacer {
    private final ControllerPlacement placement;
    private final String[] tasks;
    private final StageAssignments.Tasks stageTasks;
    /** Reused per request: the server id of each task ({@link StageAssignments#of} copies it). */
    private final String[] serverIds;
    private final PlacementExplanation why = new PlacementExplanation();

    /**
     * @param opsPerSecond the rate at which to predict the JCT before the first request (no server chosen yet): the
     *                     live servers' mean
     */
    public LocalPlacer(String model, CatalogDag dag, double opsPerSecond) {
        this.tasks = dag.tasks().stream().map(CatalogTask::id).toArray(String[]::new);
        double ops = dag.tasks().stream().mapToDouble(CatalogTask::ops).sum();
        this.placement = dag.tasks().get(0).sizeBytes() == null
                ? ControllerPlacement.local(model, List.of(tasks), ops, opsPerSecond)
                : ControllerPlacement.local(model, List.of(tasks), dag.tasks().stream().mapToDouble(CatalogTask::ops).toArray(),
                        CatalogDags.taskBytes(dag), opsPerSecond);
        this.stageTasks = new StageAssignments.Tasks(List.of(tasks));
        this.serverIds = new String[tasks.length];
    }

    @Override
    public List<StageAssignment> place(LiveServers servers, long eventTime, RandomGenerator rng) {
        Arrays.fill(serverIds, servers.id(placement.place(servers, eventTime, rng, why)[0]));
        return StageAssignments.of(stageTasks, serverIds);
    }

    @Override
    public String model() {
        return placement.model();
    }

    @Override
    public double predictedJctSeconds() {
        return placement.predictedJctSeconds();
    }

    @Override
    public PlacementExplanation explanation() {
        return why;
    }

    @Override
    public List<String> tasks() {
        return placement.tasks();
    }

    @Override
    public ControllerPlacement placement() {
        return placement;
    }
}
