package dev.nona.controller.placement;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.CatalogDag;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.ObjDoubleConsumer;

/**
 * The placement operator's placers, one per model, built for the current table and the live servers' mean compute
 * rate $\nu$: with the {@link PlacerFactory} under a table that is not the fallback and distributes the model, else
 * a {@link LocalPlacer} (before the first table, under the fallback table, for a model the table does not cover).
 * All of them are dropped ({@link #isStale}, then {@link #use}) when the table or the catalog changes, or when $\nu$
 * moves by more than {@link #OPS_REBUILD_TOLERANCE} relative (it sets the local placer's predicted JCT).
 *
 * <p>Not thread safe: one per operator instance, except {@link #tableVersion}, which a metrics gauge may read.
 */
final class PlacerCache {
    /** Relative change of the live servers' mean compute rate that rebuilds the placers. */
    static final double OPS_REBUILD_TOLERANCE = 1e-3;

    private final PlacerFactory factory;
    /** Told each new placer's predicted JCT $\tau_j$ (seconds) by model. */
    private final ObjDoubleConsumer<String> builtJct;
    private final Map<String, RequestPlacer> byModel = new HashMap<>();
    private ControllerTable table;
    private double opsPerSecond;
    private boolean stale = true;
    private volatile long tableVersion;

    PlacerCache(PlacerFactory factory, ObjDoubleConsumer<String> builtJct) {
        this.factory = Objects.requireNonNull(factory, "placer factory");
        this.builtJct = Objects.requireNonNull(builtJct, "predicted JCT listener");
    }

    /** The model's placer, or null until {@link #build} builds it for the current table. */
    RequestPlacer get(String model) {
        return byModel.get(model);
    }

    /** Builds and keeps the model's placer under the current table. */
    RequestPlacer build(String model, CatalogDag dag) {
        RequestPlacer placer = table == null || table.fallback() ? null : factory.create(model, dag, table, opsPerSecond);
        if (placer == null) {
            placer = new LocalPlacer(model, dag, opsPerSecond);
        }
        byModel.put(model, placer);
        builtJct.accept(model, placer.predictedJctSeconds());
        return placer;
    }

    /** Whether the placers must be dropped: the table, the catalog or $\nu$ changed since {@link #use}. */
    boolean isStale() {
        return stale;
    }

    /** The table or the catalog changed. */
    void markStale() {
        stale = true;
    }

    /** Drops every placer: the next ones are built under {@code table} (null before the first one). */
    void use(ControllerTable table) {
        this.table = table;
        tableVersion = table == null ? 0 : table.version();
        byModel.clear();
        stale = false;
    }

    /** The live servers' mean compute rate is now {@code nu}: stale if it moved by more than the tolerance. */
    void meanOpsPerSecond(double nu) {
        if (Math.abs(nu - opsPerSecond) > OPS_REBUILD_TOLERANCE * Math.max(opsPerSecond, Double.MIN_NORMAL)) {
            opsPerSecond = nu;
            stale = true;
        }
    }

    /**
     * Whether a table that splits a model may still come: before the first table, and under a solved one (which may
     * not cover a model the catalog added or changed since: the control loop solves again for it). Not under the
     * fallback table, which places every request whole while the load is infeasible.
     */
    boolean splitMayCome() {
        return table == null || !table.fallback();
    }

    /** The current table's version, 0 before the first table. */
    long tableVersion() {
        return tableVersion;
    }
}
