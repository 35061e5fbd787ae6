package dev.nona.controller.placement;

import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementExplanation;
import dev.nona.placement.PlacementSampler;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.StageAssignment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Nona's online step for one model under one table, as policy-model's {@link ControllerPlacement} does it (the
 * same class the simulator's {@code nona-controller} policy runs): this adapter only turns its server per task
 * into the decision's stage assignments. Not thread safe (one per operator instance).
 */
public final class NonaPlacer implements RequestPlacer {
    private final ControllerPlacement placement;
    private final List<String> tasks;
    /** Reused per request; {@link List#of} copies it into the decision's list. */
    private final StageAssignment[] result;
    /**
     * Stage assignments by server index, then task, for {@link #cachedFor}: immutable, so shared by all decisions;
     * a request's tasks mostly share a few servers, so by server first its look-ups stay in a few short rows. A row
     * is filled whole the first time its server is used, so its assignments lie next to each other in memory (filled
     * one task at a time, at thousands of servers each decision's look-ups were scattered cache misses).
     */
    private StageAssignment[][] stages;
    private LiveServers cachedFor;
    private final PlacementExplanation why = new PlacementExplanation();

    /** @param dag the model's catalog DAG, with the same tasks as the table's (for their operations) */
    public NonaPlacer(PlacementSampler sampler, String model, CatalogDag dag) {
        Map<String, Double> opsById = new HashMap<>();
        dag.tasks().forEach(t -> opsById.put(t.id(), t.ops()));
        this.placement = ControllerPlacement.of(sampler, model, opsById);
        this.tasks = placement.tasks();
        this.result = new StageAssignment[tasks.size()];
    }

    @Override
    public List<StageAssignment> place(LiveServers servers, long eventTime, RandomGenerator rng) {
        if (cachedFor != servers || stages.length < servers.known()) {
            stages = new StageAssignment[Math.max(16, 2 * servers.known())][];
            cachedFor = servers;
        }
        int[] out = placement.place(servers, eventTime, rng, why);
        StageAssignment[] result = this.result;
        for (int i = 0; i < result.length; i++) {
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
        return tasks;
    }
}
