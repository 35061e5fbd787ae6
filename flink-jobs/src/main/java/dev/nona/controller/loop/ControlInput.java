package dev.nona.controller.loop;

import dev.nona.controller.rates.RateEstimate;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;

/**
 * One input of the control loop: exactly one of a rate estimate, a server's status, a catalog entry, or the
 * name of a model removed from the catalog (a tombstone).
 */
public record ControlInput(RateEstimate rate, ServerTelemetry server, ModelCatalogEntry catalog, String removedModel) {
    public ControlInput {
        int set = (rate != null ? 1 : 0) + (server != null ? 1 : 0) + (catalog != null ? 1 : 0)
                + (removedModel != null ? 1 : 0);
        if (set != 1) {
            throw new IllegalArgumentException("BUG: a control input holds exactly one thing, not " + set);
        }
    }

    public static ControlInput of(RateEstimate rate) {
        return new ControlInput(rate, null, null, null);
    }

    public static ControlInput of(ServerTelemetry server) {
        return new ControlInput(null, server, null, null);
    }

    public static ControlInput of(ModelCatalogEntry catalog) {
        return new ControlInput(null, null, catalog, null);
    }

    public static ControlInput removed(String model) {
        return new ControlInput(null, null, null, model);
    }
}
