package dev.nona.controller.placement;

import dev.nona.controller.cluster.TelemetryClock;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import java.util.Map;

/**
 * One element of the broadcast stream into the placement operator: exactly one of a published table, a server's
 * status, a catalog entry, a model removed from the catalog, or the servers' speeds learned from outcomes (server id
 * to ops/s, used in place of the reported speeds), or the operator's commands in force. A server's status may carry
 * the {@code cluster-telemetry} partition it was read from ({@code partition}, else {@code null}).
 */
public record BroadcastUpdate(ControllerTable table, ServerTelemetry server, ModelCatalogEntry catalog, String removedModel,
        Map<String, Double> learnedSpeeds, ActiveCommands commands, Integer partition) {
    public BroadcastUpdate {
        int set = (table != null ? 1 : 0) + (server != null ? 1 : 0) + (catalog != null ? 1 : 0)
                + (removedModel != null ? 1 : 0) + (learnedSpeeds != null ? 1 : 0) + (commands != null ? 1 : 0);
        if (set != 1) {
            throw new IllegalArgumentException("BUG: a broadcast update holds exactly one thing, not " + set);
        }
        if (partition != null && (server == null || partition < 0)) {
            throw new IllegalArgumentException("BUG: a partition (" + partition + ") belongs to a server's status");
        }
    }

    public static BroadcastUpdate of(ControllerTable table) {
        return new BroadcastUpdate(table, null, null, null, null, null, null);
    }

    public static BroadcastUpdate of(ServerTelemetry server) {
        return new BroadcastUpdate(null, server, null, null, null, null, null);
    }

    /** A server's status read from {@code cluster-telemetry} partition {@code partition} (< 0: not known). */
    public static BroadcastUpdate of(ServerTelemetry server, int partition) {
        return new BroadcastUpdate(null, server, null, null, null, null, partition < 0 ? null : partition);
    }

    /** The partition a server's status was read from, or {@link TelemetryClock#NO_PARTITION}. */
    public int partitionOrNone() {
        return partition == null ? TelemetryClock.NO_PARTITION : partition;
    }

    public static BroadcastUpdate of(ModelCatalogEntry catalog) {
        return new BroadcastUpdate(null, null, catalog, null, null, null, null);
    }

    public static BroadcastUpdate removed(String model) {
        return new BroadcastUpdate(null, null, null, model, null, null, null);
    }

    /** What a calibration window learned: each server's effective speed. */
    public static BroadcastUpdate learned(Map<String, Double> speeds) {
        return new BroadcastUpdate(null, null, null, null, Map.copyOf(speeds), null, null);
    }

    /** The operator's commands in force. */
    public static BroadcastUpdate of(ActiveCommands commands) {
        return new BroadcastUpdate(null, null, null, null, null, commands, null);
    }
}
