package dev.nona.controller.placement;

import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementExplanation;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.StageAssignment;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The safe fallback: no distribution, every task of a request on one server (warm first). Nothing crosses the
 * link, so it is always stable; it is what the controller uses before its first table and when the load is
 * infeasible ($\rho \ge 1$ under every table). Predicted JCT: the DAG's total compute $\sum_t p^t / \nu$.
 * The server is policy-model's {@link ControllerPlacement#local}'s; this adapter turns it into stage assignments.
 * Not thread safe (one per operator instance).
 */
public final class LocalPlacer implements RequestPlacer {
    private final ControllerPlacement placement;
    private final String[] tasks;
    private final double jct;
    /** Every task on a server, for the servers used lately (see {@link StageRows}). */
    private final StageRows rows;
    private final PlacementExplanation why = new PlacementExplanation();

    public LocalPlacer(String model, CatalogDag dag, double opsPerSecond) {
        this.tasks = dag.tasks().stream().map(CatalogTask::id).toArray(String[]::new);
        double ops = dag.tasks().stream().mapToDouble(CatalogTask::ops).sum();
        this.placement = ControllerPlacement.local(model, List.of(tasks), ops);
        this.jct = opsPerSecond > 0 ? ops / opsPerSecond : 0;
        this.rows = new StageRows(List.of(tasks));
    }

    @Override
    public List<StageAssignment> place(LiveServers servers, long eventTime, RandomGenerator rng) {
        int server = placement.place(servers, eventTime, rng, why)[0];
        return List.of(rows.row(servers, server)); // copies: the decision keeps its own list
    }

    @Override
    public String model() {
        return placement.model();
    }

    @Override
    public double predictedJctSeconds() {
        return jct;
    }

    @Override
    public PlacementExplanation explanation() {
        return why;
    }

    @Override
    public List<String> tasks() {
        return placement.tasks();
    }
}
