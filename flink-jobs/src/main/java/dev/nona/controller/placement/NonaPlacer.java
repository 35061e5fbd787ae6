package dev.nona.controller.placement;

import dev.nona.placement.PlacementSampler;
import dev.nona.placement.ServerPolicy;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.StageAssignment;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Nona's online step for one model under one table: the source on a server chosen warm first, a triplet per
 * subgraph sampled from $\theta_t$ in $O(1)$ (policy-model's {@link PlacementSampler}), the other parts on
 * distinct servers (warm first), the sink on its part's server. Not thread safe (one per operator instance).
 *
 * <p>Based on: Nona (CloudNet 2024), Section III-A (online scheduling), with the thesis's warm-first mapping.
 */
public final class NonaPlacer implements RequestPlacer, ServerPolicy {
    private final PlacementSampler sampler;
    private final int modelIndex;
    private final String model;
    private final List<String> tasks;
    private final int[] out;
    /** Operations of each task, in {@link #tasks}' order. */
    private final double[] ops;
    /** Reused per request; {@link List#of} copies it into the decision's list. */
    private final StageAssignment[] result;
    private final double jct;
    private WarmFirstServers servers;
    private long eventTime;
    private int warm;
    /**
     * Stage assignments by server index, then task, for {@link #cachedFor}: immutable, so shared by all decisions;
     * a request's tasks mostly share a few servers, so by server first its look-ups stay in a few short rows. A row
     * is filled whole the first time its server is used, so its assignments lie next to each other in memory (filled
     * one task at a time, at thousands of servers each decision's look-ups were scattered cache misses).
     */
    private StageAssignment[][] stages;
    private WarmFirstServers cachedFor;

    /** @param dag the model's catalog DAG, with the same tasks as the table's (for their operations) */
    public NonaPlacer(PlacementSampler sampler, String model, CatalogDag dag) {
        this.sampler = sampler;
        this.modelIndex = sampler.modelIndex(model);
        if (modelIndex < 0) {
            throw new IllegalArgumentException("model '" + model + "' is not in the table");
        }
        this.model = model;
        this.tasks = sampler.tasks(modelIndex);
        this.out = new int[tasks.size()];
        Map<String, Double> opsById = new HashMap<>();
        dag.tasks().forEach(t -> opsById.put(t.id(), t.ops()));
        this.ops = new double[tasks.size()];
        for (int i = 0; i < ops.length; i++) {
            Double o = opsById.get(tasks.get(i));
            if (o == null) {
                throw new IllegalArgumentException("task '" + tasks.get(i) + "' of the table is not in the catalog DAG of model '"
                        + model + "'");
            }
            ops[i] = o;
        }
        this.result = new StageAssignment[tasks.size()];
        this.jct = sampler.table().models().get(modelIndex).predictedJctSeconds();
    }

    @Override
    public List<StageAssignment> place(WarmFirstServers servers, long eventTime, RandomGenerator rng) {
        this.servers = servers;
        this.eventTime = eventTime;
        this.warm = servers.warm(model);
        if (cachedFor != servers || stages.length < servers.known()) {
            stages = new StageAssignment[Math.max(16, 2 * servers.known())][];
            cachedFor = servers;
        }
        sampler.place(modelIndex, this, rng, out);
        servers.record(out, ops, out.length, eventTime);
        StageAssignment[] result = this.result;
        for (int i = 0; i < out.length; i++) {
            StageAssignment[] row = stages[out[i]];
            if (row == null) {
                row = row(servers.id(out[i]));
                stages[out[i]] = row;
            }
            result[i] = row[i];
        }
        return List.of(result); // copies: the decision keeps its own list
    }

    /** Every task of the model on {@code server}, allocated together. */
    private StageAssignment[] row(String server) {
        StageAssignment[] row = new StageAssignment[tasks.size()];
        for (int t = 0; t < row.length; t++) {
            row[t] = new StageAssignment(tasks.get(t), server);
        }
        return row;
    }

    @Override
    public String model() {
        return model;
    }

    @Override
    public double predictedJctSeconds() {
        return Double.isFinite(jct) ? jct : 0;
    }

    @Override
    public int sourceServer(int model, RandomGenerator rnd) {
        return servers.pick(this.model, eventTime, rnd);
    }

    @Override
    public int partServer(int model, int[] taken, int takenCount, RandomGenerator rnd) {
        return servers.pickOther(warm, taken, takenCount, eventTime, rnd);
    }
}
