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
 * Not thread safe (one per operator instance).
 */
public final class LocalPlacer implements RequestPlacer {
    private final String model;
    private final String[] tasks;
    /** The DAG's total operations, as one task: the whole request runs on one server. */
    private final double[] ops;
    private final int[] server = new int[1];
    private final double jct;
    /** The (immutable) placement on each server, for {@link #cachedFor}: shared by all decisions. */
    private List<StageAssignment>[] stages;
    private WarmFirstServers cachedFor;

    public LocalPlacer(String model, CatalogDag dag, double opsPerSecond) {
        this.model = model;
        this.tasks = dag.tasks().stream().map(CatalogTask::id).toArray(String[]::new);
        double ops = dag.tasks().stream().mapToDouble(CatalogTask::ops).sum();
        this.ops = new double[] {ops};
        this.jct = opsPerSecond > 0 ? ops / opsPerSecond : 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<StageAssignment> place(WarmFirstServers servers, long eventTime, RandomGenerator rng) {
        int server = servers.pick(model, eventTime, rng);
        this.server[0] = server;
        servers.record(this.server, ops, 1, eventTime);
        if (cachedFor != servers || stages.length < servers.known()) {
            stages = new List[Math.max(16, 2 * servers.known())];
            cachedFor = servers;
        }
        List<StageAssignment> placed = stages[server];
        if (placed == null) {
            StageAssignment[] out = new StageAssignment[tasks.length];
            for (int i = 0; i < tasks.length; i++) {
                out[i] = new StageAssignment(tasks[i], servers.id(server));
            }
            placed = List.of(out);
            stages[server] = placed;
        }
        return placed;
    }

    @Override
    public String model() {
        return model;
    }

    @Override
    public double predictedJctSeconds() {
        return jct;
    }
}
