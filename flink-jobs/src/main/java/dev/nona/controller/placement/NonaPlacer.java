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
    /** Every task on a server, for the servers used lately (see {@link StageRows}). */
    private final StageRows rows;
    private final PlacementExplanation why = new PlacementExplanation();

    /** @param dag the model's catalog DAG, with the same tasks as the table's (for their operations) */
    public NonaPlacer(PlacementSampler sampler, String model, CatalogDag dag) {
        Map<String, Double> opsById = new HashMap<>();
        dag.tasks().forEach(t -> opsById.put(t.id(), t.ops()));
        this.placement = ControllerPlacement.of(sampler, model, opsById);
        this.tasks = placement.tasks();
        this.result = new StageAssignment[tasks.size()];
        this.rows = new StageRows(tasks);
    }

    @Override
    public List<StageAssignment> place(LiveServers servers, long eventTime, RandomGenerator rng) {
        int[] out = placement.place(servers, eventTime, rng, why);
        StageAssignment[] result = this.result;
        for (int i = 0; i < result.length; i++) {
            result[i] = rows.row(servers, out[i])[i];
        }
        return List.of(result); // copies: the decision keeps its own list
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
