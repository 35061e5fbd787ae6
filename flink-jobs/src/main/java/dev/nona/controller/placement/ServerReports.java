package dev.nona.controller.placement;

import dev.nona.placement.LiveServers;
import dev.nona.workload.ServerClass;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Passes server telemetry on to policy-model's {@link LiveServers}, the controller's server mapping (which the
 * simulator's controller policy uses too): the record's fields, the cached models it holds whole by name
 * ({@link #heldWhole}), its class and memory when it gives them, and its free memory (what a new part may use now)
 * when it gives it; without one a part may use the server's whole memory, as before the field.
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
     * warm there ({@link #heldWhole}).
     */
    public static int apply(LiveServers servers, ServerTelemetry report, Double learnedOpsPerSecond,
            ToDoubleFunction<String> modelBytes, long nowMillis) {
        List<String> warm = new ArrayList<>(report.cachedModels().size());
        for (CachedModel m : report.cachedModels()) {
            if (modelBytes == null || heldWhole(m.bytes(), modelBytes.applyAsDouble(m.model()))) {
                warm.add(m.model());
            }
        }
        double ops = learnedOpsPerSecond != null && report.opsPerSecond() > 0 ? learnedOpsPerSecond : report.opsPerSecond();
        int s = servers.report(report.serverId(), report.up(), ops, report.ongoingRequests(),
                report.backlogSeconds() == null ? Double.NaN : report.backlogSeconds(), warm, report.serverClass(),
                report.memoryBytes() == null ? ServerClass.UNBOUNDED : report.memoryBytes(), report.eventTime(), nowMillis);
        if (report.freeMemoryBytes() != null) {
            servers.freeMemoryBytes(s, report.freeMemoryBytes()); // the report reset it to the whole memory
        }
        return s;
    }

    /**
     * Whether a server that reports {@code reportedBytes} of a model loaded holds it whole, the model being
     * {@code modelBytes} by the catalog (0: not known, then whole as reported): the reported bytes cover the model's,
     * within a byte (a report rounds them). A server holding only some of a model's parts (an executor evicts idle
     * parts one by one, and a split request leaves only its part there) is cold for it: a pick of the whole model
     * there loads the rest, a cold start the rule must predict. Counting such servers warm, as before, made the rule
     * send requests to servers whose parts were evicted: {@code bin/nona demo --workload examples/memory-bound.json}
     * (60 s, about 6,000 requests) had 1,841 cold starts, 5,216 evictions and a mean JCT of 0.527 s against 0.149 s
     * predicted; with only the whole models warm, 744, 765 and 0.161 s against 0.143 s. The simulator's controller
     * policy reports the models its servers hold whole, every task loaded: the same rule on the engine's state.
     */
    static boolean heldWhole(double reportedBytes, double modelBytes) {
        return !(modelBytes > 0) || reportedBytes >= modelBytes - 1;
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
