package dev.nona.controller.placement;

import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementExplanation;
import dev.nona.placement.PlacementSampler;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.StageAssignment;
import java.util.Arrays;
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
    /** Rows of stage assignments kept (a power of two): see {@link #rows}. */
    static final int ROWS = 64;
    private final ControllerPlacement placement;
    private final List<String> tasks;
    /** Reused per request; {@link List#of} copies it into the decision's list. */
    private final StageAssignment[] result;
    /**
     * Recently used servers' stage assignments (immutable, so shared by all decisions): every task of the model on
     * one server, in a direct-mapped cache of {@link #ROWS} rows by server index ({@link #rowServer} tags each row).
     * On a small cluster every server keeps its row and a decision allocates no assignment; on a large one a row is
     * mostly built afresh, next to the decision that uses it. (Keeping a row for every server, tasks x servers
     * assignments, was 940,000 objects, 22 MB, at 10,000 servers for resnet18 and alexnet: each decision's 71 or 23
     * assignments were cache misses.)
     */
    private final StageAssignment[][] rows = new StageAssignment[ROWS][];
    private final int[] rowServer = new int[ROWS];
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
        if (cachedFor != servers) { // indices are the mapping's own
            Arrays.fill(rowServer, -1);
            cachedFor = servers;
        }
        int[] out = placement.place(servers, eventTime, rng, why);
        StageAssignment[] result = this.result;
        for (int i = 0; i < result.length; i++) {
            int s = out[i];
            int k = s & (ROWS - 1);
            if (rowServer[k] != s) {
                rows[k] = row(servers.id(s));
                rowServer[k] = s;
            }
            result[i] = rows[k][i];
        }
        return List.of(result); // copies: the decision keeps its own list
    }

    /** Every task of the model on {@code server}. */
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
