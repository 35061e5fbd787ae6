package dev.nona.controller.loop;

import dev.nona.controller.cluster.TelemetryClock;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.command.CommandRecord;
import dev.nona.controller.rates.RateEstimate;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;

/**
 * One input of the control loop: exactly one of a rate estimate, a server's status, a catalog entry, the
 * name of a model removed from the catalog (a tombstone), what a calibration window learned from outcomes, the
 * operator's commands in force, or an operator's rollback. A server's status may carry the {@code cluster-telemetry}
 * partition it was read from ({@code partition}, else {@code null}: see {@code cluster.TelemetryClock}).
 */
public record ControlInput(RateEstimate rate, ServerTelemetry server, ModelCatalogEntry catalog, String removedModel,
        Learned learned, ActiveCommands commands, CommandRecord rollback, Integer partition) {
    public ControlInput {
        int set = (rate != null ? 1 : 0) + (server != null ? 1 : 0) + (catalog != null ? 1 : 0)
                + (removedModel != null ? 1 : 0) + (learned != null ? 1 : 0) + (commands != null ? 1 : 0)
                + (rollback != null ? 1 : 0);
        if (set != 1) {
            throw new IllegalArgumentException("BUG: a control input holds exactly one thing, not " + set);
        }
        if (partition != null && (server == null || partition < 0)) {
            throw new IllegalArgumentException("BUG: a partition (" + partition + ") belongs to a server's status");
        }
    }

    public static ControlInput of(RateEstimate rate) {
        return new ControlInput(rate, null, null, null, null, null, null, null);
    }

    public static ControlInput of(ServerTelemetry server) {
        return new ControlInput(null, server, null, null, null, null, null, null);
    }

    /** A server's status read from {@code cluster-telemetry} partition {@code partition}. */
    public static ControlInput of(ServerTelemetry server, int partition) {
        return new ControlInput(null, server, null, null, null, null, null, partition);
    }

    /** The partition a server's status was read from, or {@link TelemetryClock#NO_PARTITION}. */
    public int partitionOrNone() {
        return partition == null ? TelemetryClock.NO_PARTITION : partition;
    }

    public static ControlInput of(ModelCatalogEntry catalog) {
        return new ControlInput(null, null, catalog, null, null, null, null, null);
    }

    public static ControlInput removed(String model) {
        return new ControlInput(null, null, null, model, null, null, null, null);
    }

    public static ControlInput of(Learned learned) {
        return new ControlInput(null, null, null, null, learned, null, null, null);
    }

    public static ControlInput of(ActiveCommands commands) {
        return new ControlInput(null, null, null, null, null, commands, null, null);
    }

    public static ControlInput rollback(CommandRecord rollback) {
        return new ControlInput(null, null, null, null, null, null, rollback, null);
    }
}
