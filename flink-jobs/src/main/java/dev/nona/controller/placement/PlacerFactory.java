package dev.nona.controller.placement;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.CatalogDag;
import java.io.Serializable;

/**
 * Builds the {@link RequestPlacer} of one model under one table. Called once per table version and model, off
 * the per-request path.
 */
public interface PlacerFactory extends Serializable {
    /**
     * @param model        the model
     * @param dag          its DAG from the catalog
     * @param table        the current table, or {@code null} before the first one
     * @param opsPerSecond the up servers' mean compute rate $\nu$
     * @return the placer, or {@code null} when the table has no distribution for the model (the caller then
     *         places the request locally)
     */
    RequestPlacer create(String model, CatalogDag dag, ControllerTable table, double opsPerSecond);

    /**
     * The placement rule's idle gate $\kappa$ under {@code table}: the solved table's {@code idleGate}; 0 without a
     * table, under a fallback one, or from a factory that reads none. Read where the factory reads the table, once
     * per version.
     */
    default double idleGate(ControllerTable table) {
        return 0;
    }
}
