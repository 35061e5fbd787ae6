package dev.nona.controller.placement;

import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.StageAssignment;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The safe fallback: no distribution, every task of a request on one server (warm first). Nothing crosses the
 * link, so it is always stable; it is what the controller uses before its first table and when the load is
 * infeasible ($\rho \ge 1$ under every table). Predicted JCT: the DAG's total compute $\sum_t p^t / \nu$.
 */
public final class LocalPlacer implements RequestPlacer {
    private final String model;
    private final String[] tasks;
    private final double jct;

    public LocalPlacer(String model, CatalogDag dag, double opsPerSecond) {
        this.model = model;
        this.tasks = dag.tasks().stream().map(CatalogTask::id).toArray(String[]::new);
        double ops = dag.tasks().stream().mapToDouble(CatalogTask::ops).sum();
        this.jct = opsPerSecond > 0 ? ops / opsPerSecond : 0;
    }

    @Override
    public List<StageAssignment> place(WarmFirstServers servers, RandomGenerator rng) {
        String server = servers.id(servers.pick(model, rng));
        StageAssignment[] out = new StageAssignment[tasks.length];
        for (int i = 0; i < tasks.length; i++) {
            out[i] = new StageAssignment(tasks[i], server);
        }
        return List.of(out);
    }

    @Override
    public double predictedJctSeconds() {
        return jct;
    }
}
