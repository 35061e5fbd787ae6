package dev.nona.controller.placement;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ServerTelemetry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The placement operator's bootstrap snapshot, split by kind: the newest table, the server statuses in order, the
 * catalog's models, the operator's commands in force. Each is used until the broadcast state holds something newer
 * in its place: a table of its own ({@link #newer}), a server's status of the same or a later event time
 * ({@link #latestReports}), the model's catalog entry (or its removal), commands of its own ({@link #commands}). The
 * pipeline benchmark and tests start from one; the controller job starts from the catalog, the commands in force and
 * the newest table that fits them, read from Kafka before it is submitted ({@code StartupSnapshot}).
 *
 * <p>The function carries it as the bytes {@link #encode} writes ({@link BroadcastUpdateSerializer}'s binary form,
 * 10,000 server reports decode in milliseconds) and {@link #decode}s it when it opens.
 */
record BootstrapSnapshot(ControllerTable table, List<ServerTelemetry> servers, Map<String, CatalogDag> models,
        ActiveCommands commands) {
    BootstrapSnapshot {
        servers = List.copyOf(servers);
        models = Map.copyOf(models);
        Objects.requireNonNull(commands, "commands in force at start");
    }

    /**
     * The snapshot of {@code updates}: the newest table, the servers in order, the models (a table's only), the
     * operator's commands in force (the newest by sequence; none when it holds none).
     */
    static BootstrapSnapshot of(List<BroadcastUpdate> updates) {
        ControllerTable table = null;
        List<ServerTelemetry> servers = new ArrayList<>();
        Map<String, CatalogDag> models = new HashMap<>();
        ActiveCommands commands = ActiveCommands.NONE;
        for (BroadcastUpdate u : updates) {
            if (u.table() != null && (table == null || u.table().version() > table.version())) {
                table = u.table();
            } else if (u.server() != null) {
                servers.add(u.server());
            } else if (u.catalog() != null) {
                models.put(u.catalog().model(), CatalogDags.sized(u.catalog()));
            } else if (u.commands() != null && u.commands().sequence() >= commands.sequence()) {
                commands = u.commands();
            }
        }
        return new BootstrapSnapshot(table, servers, models, commands);
    }

    /**
     * The operator's commands to place under: {@code stored} (the broadcast state's), or the snapshot's while the
     * state holds none. The job's command operator continues from the snapshot's (its first change is the next
     * sequence number), so the state's replace them whatever their sequence; after a restore the state's are the
     * checkpoint's.
     */
    ActiveCommands commands(ActiveCommands stored) {
        return stored != null ? stored : commands;
    }

    /**
     * The table to place with: {@code stored} (the broadcast state's), or the snapshot's while the state holds none.
     * The job's own first table replaces the snapshot's whatever its version (a fresh control loop numbers its tables
     * on from the newest on {@code placement-tables}, a restored one continues the numbering of its checkpoint; a
     * snapshot from elsewhere, a benchmark's, may have any version).
     */
    ControllerTable newer(ControllerTable stored) {
        return stored != null ? stored : table;
    }

    /**
     * The latest status of every server: {@code stored}'s (the broadcast state's), and for a server it does not hold
     * (or holds an older status of), the snapshot's; in the snapshot's order, then the state's.
     */
    List<ServerTelemetry> latestReports(Iterable<Map.Entry<String, ServerTelemetry>> stored) {
        Map<String, ServerTelemetry> latest = new LinkedHashMap<>();
        for (ServerTelemetry s : servers) {
            latest.put(s.serverId(), s);
        }
        for (Map.Entry<String, ServerTelemetry> e : stored) {
            latest.merge(e.getKey(), e.getValue(), (boot, reported) -> reported.eventTime() >= boot.eventTime()
                    ? reported : boot);
        }
        return new ArrayList<>(latest.values());
    }

    /** {@code updates} as {@link BroadcastUpdateSerializer} writes them, behind their count. */
    static byte[] encode(List<BroadcastUpdate> updates) {
        Objects.requireNonNull(updates, "bootstrap snapshot");
        BroadcastUpdateSerializer serializer = new BroadcastUpdateSerializer();
        DataOutputSerializer out = new DataOutputSerializer(256 + 128 * updates.size());
        try {
            out.writeInt(updates.size());
            for (BroadcastUpdate u : updates) {
                serializer.serialize(u, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the bootstrap snapshot", e);
        }
        return out.getCopyOfBuffer();
    }

    /** The snapshot {@link #encode} wrote. */
    static BootstrapSnapshot decode(byte[] bytes) {
        BroadcastUpdateSerializer serializer = new BroadcastUpdateSerializer();
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        try {
            int n = in.readInt();
            List<BroadcastUpdate> updates = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                updates.add(serializer.deserialize(in));
            }
            return of(updates);
        } catch (IOException e) {
            throw new UncheckedIOException("BUG: cannot read the bootstrap snapshot this function wrote", e);
        }
    }
}
