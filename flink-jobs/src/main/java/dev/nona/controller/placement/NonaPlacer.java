package dev.nona.controller.placement;

import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementExplanation;
import dev.nona.placement.PlacementSampler;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.record.StageAssignments;
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
    private final StageAssignments.Tasks stageTasks;
    /** Reused per request: the server id of each task ({@link StageAssignments#of} copies it). */
    private final String[] serverIds;
    private final PlacementExplanation why = new PlacementExplanation();

    /** @param dag the model's catalog DAG, with the same tasks as the table's (for their operations) */
    public NonaPlacer(PlacementSampler sampler, String model, CatalogDag dag) {
        Map<String, Double> opsById = new HashMap<>();
        dag.tasks().forEach(t -> opsById.put(t.id(), t.ops()));
        Map<String, Double> bytesById = new HashMap<>();
        dag.tasks().forEach(t -> bytesById.put(t.id(), t.sizeBytes() == null ? 0.0 : t.sizeBytes()));
        this.placement = ControllerPlacement.of(sampler, model, opsById, bytesById);
        this.tasks = placement.tasks();
        this.stageTasks = new StageAssignments.Tasks(tasks);
        this.serverIds = new String[tasks.size()];
    }

    @Override
    public List<StageAssignment> place(LiveServers servers, long eventTime, RandomGenerator rng) {
        return stages(servers, placement.place(servers, eventTime, rng, why), stageTasks, serverIds);
    }

    /**
     * Task {@code t} of {@code tasks} on server {@code chosen[t]} of {@code servers}, for every task: one id look-up
     * per run of the same server ({@code serverIds}: scratch of the tasks' size).
     */
    private static StageAssignments stages(LiveServers servers, int[] chosen, StageAssignments.Tasks tasks,
            String[] serverIds) {
        int last = -1;
        String id = null;
        for (int t = 0; t < serverIds.length; t++) {
            int s = chosen[t];
            if (s != last) { // a part's tasks are mostly consecutive
                last = s;
                id = servers.id(s);
            }
            serverIds[t] = id;
        }
        return StageAssignments.of(tasks, serverIds);
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

    @Override
    public ControllerPlacement placement() {
        return placement;
    }
}
