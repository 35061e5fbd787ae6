package dev.nona.controller.placement;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;

/**
 * One element of the broadcast stream into the placement operator: exactly one of a published table, a server's
 * status, a catalog entry, or a model removed from the catalog.
 */
public record BroadcastUpdate(ControllerTable table, ServerTelemetry server, ModelCatalogEntry catalog, String removedModel) {
    public BroadcastUpdate {
        int set = (table != null ? 1 : 0) + (server != null ? 1 : 0) + (catalog != null ? 1 : 0)
                + (removedModel != null ? 1 : 0);
        if (set != 1) {
            throw new IllegalArgumentException("BUG: a broadcast update holds exactly one thing, not " + set);
        }
    }

    public static BroadcastUpdate of(ControllerTable table) {
        return new BroadcastUpdate(table, null, null, null);
    }

    public static BroadcastUpdate of(ServerTelemetry server) {
        return new BroadcastUpdate(null, server, null, null);
    }

    public static BroadcastUpdate of(ModelCatalogEntry catalog) {
        return new BroadcastUpdate(null, null, catalog, null);
    }

    public static BroadcastUpdate removed(String model) {
        return new BroadcastUpdate(null, null, null, model);
    }
}
