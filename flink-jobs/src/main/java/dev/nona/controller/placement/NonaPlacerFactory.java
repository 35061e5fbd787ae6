package dev.nona.controller.placement;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.placement.PlacementSampler;
import dev.nona.placement.PlacementTable;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import java.util.HashSet;
import java.util.Set;

/**
 * Builds {@link NonaPlacer}s from a published table: one {@link PlacementSampler} per table version (alias tables
 * built once), one placer per model. A model the table does not cover, or whose catalog DAG no longer has the
 * tasks the table was solved for, gets no placer (the operator places it locally until the next table).
 * Not thread safe: each operator instance has its own copy.
 */
public final class NonaPlacerFactory implements PlacerFactory {
    private static final long serialVersionUID = 1L;

    private transient long samplerVersion = -1;
    private transient PlacementSampler sampler;

    @Override
    public RequestPlacer create(String model, CatalogDag dag, ControllerTable table, double opsPerSecond) {
        if (table == null || table.fallback()) {
            return null;
        }
        PlacementSampler sampler = sampler(table);
        int index = sampler.modelIndex(model);
        if (index < 0) {
            return null;
        }
        Set<String> catalogTasks = new HashSet<>();
        for (CatalogTask t : dag.tasks()) {
            catalogTasks.add(t.id());
        }
        if (!catalogTasks.equals(new HashSet<>(sampler.tasks(index)))) {
            return null;
        }
        return new NonaPlacer(sampler, model, dag);
    }

    @Override
    public double idleGate(ControllerTable table) {
        return table == null || table.fallback() ? 0 : sampler(table).table().idleGate();
    }

    /** The sampler of {@code table}'s version: its JSON read once per version. */
    private PlacementSampler sampler(ControllerTable table) {
        if (sampler == null || samplerVersion != table.version()) {
            sampler = new PlacementSampler(PlacementTable.fromJson(table.tableJson()));
            samplerVersion = table.version();
        }
        return sampler;
    }
}
