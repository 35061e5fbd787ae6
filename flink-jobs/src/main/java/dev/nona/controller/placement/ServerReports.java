package dev.nona.controller.placement;

import dev.nona.placement.LiveServers;
import dev.nona.workload.ServerClass;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ServerTelemetry;
import java.util.Collection;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Passes server telemetry on to policy-model's {@link LiveServers}, the controller's server mapping (which the
 * simulator's controller policy uses too): the record's fields, the cached models it holds whole by name
 * ({@link CachedModel#holdsWhole}: counting every reported model warm sent whole-model requests to servers whose parts
 * had been evicted; docs/controller.md, "Warm means whole"), its class and memory when it gives them, and its free
 * memory (what a new part may use now) when it gives it; without one a part may use the server's whole memory, as
 * before the field. The bytes it holds of each model check the parts of models too large for it that this placer
 * sent there ({@link LiveServers#heldBytes}).
 */
public final class ServerReports {
    private ServerReports() {}

    /** The latest report of a server, heard at {@code nowMillis} (processing time); returns the server's index. */
    public static int apply(LiveServers servers, ServerTelemetry report, long nowMillis) {
        return apply(servers, report, null, nowMillis);
    }

    /**
     * As {@link #apply(LiveServers, ServerTelemetry, long)}, with the speed the server's outcomes showed in place of
     * the one it reports ({@code learnedOpsPerSecond}; null when none was learned). A report of 0 ops/s stays 0:
     * the server asked for no stages.
     */
    public static int apply(LiveServers servers, ServerTelemetry report, Double learnedOpsPerSecond, long nowMillis) {
        return apply(servers, report, learnedOpsPerSecond, null, nowMillis);
    }

    /**
     * As {@link #apply(LiveServers, ServerTelemetry, Double, long)}, with each model's bytes by the catalog
     * ({@code modelBytes}; null, or 0 for a model: not known), so that only the models the server holds whole are
     * warm there ({@link CachedModel#holdsWhole}).
     */
    public static int apply(LiveServers servers, ServerTelemetry report, Double learnedOpsPerSecond,
            ToDoubleFunction<String> modelBytes, long nowMillis) {
        List<String> warm = CachedModel.whole(report.cachedModels(), modelBytes == null ? model -> 0 : modelBytes);
        double ops = learnedOpsPerSecond != null && report.opsPerSecond() > 0 ? learnedOpsPerSecond : report.opsPerSecond();
        int s = servers.report(report.serverId(), report.up(), ops, report.ongoingRequests(),
                report.backlogSeconds() == null ? Double.NaN : report.backlogSeconds(), warm, report.serverClass(),
                report.memoryBytes() == null ? ServerClass.UNBOUNDED : report.memoryBytes(), report.eventTime(), nowMillis);
        if (report.freeMemoryBytes() != null) {
            servers.freeMemoryBytes(s, report.freeMemoryBytes(), report.eventTime()); // the report reset it to the whole memory
        }
        keepHeldParts(servers, s, report);
        return s;
    }

    /**
     * Keeps the parts of models larger than server {@code s} that the placer sent there ({@link LiveServers#loadingPart},
     * or restored from a checkpoint) only as far as {@code report}, the server's latest, shows them still held.
     */
    public static void keepHeldParts(LiveServers servers, int s, ServerTelemetry report) {
        if (servers.holdsParts(s)) {
            servers.heldBytes(s, model -> heldBytes(report.cachedModels(), model));
        }
    }

    /** The bytes of {@code model} a report's cached models give (0 when it does not name it). */
    private static double heldBytes(List<CachedModel> held, String model) {
        for (CachedModel m : held) {
            if (m.model().equals(model)) {
                return m.bytes();
            }
        }
        return 0;
    }

    /** From the latest status of each server, heard now, without a liveness timeout; down servers are never chosen. */
    public static LiveServers of(Collection<ServerTelemetry> latest, int targetOngoingRequests) {
        return of(latest, targetOngoingRequests, 0, 1);
    }

    /** As {@link #of(Collection, int)} for placement subtask {@code subtask} of {@code parallelism}. */
    public static LiveServers of(Collection<ServerTelemetry> latest, int targetOngoingRequests, int subtask, int parallelism) {
        LiveServers servers = new LiveServers(targetOngoingRequests, subtask, parallelism, LiveServers.NO_LIVENESS_TIMEOUT);
        latest.forEach(s -> apply(servers, s, 0));
        return servers;
    }
}
