package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A value of {@code cluster-telemetry} (key: {@link #serverId()}): the status of one inference server.
 *
 * @param schemaVersion     {@link SchemaVersions#CURRENT}
 * @param serverId          the server, not blank; also the Kafka key
 * @param up                whether it accepts work
 * @param opsPerSecond      its compute rate $\nu$ in operations per second, finite and {@code >= 0}
 *                          (0 only makes sense for a server that is down)
 * @param ongoingRequests   requests it has in flight, {@code >= 0}
 * @param cachedModels      models it holds bytes of, whole or in part ({@link CachedModel#holdsWhole}; copied;
 *                          model names unique)
 * @param linkBitsPerSecond optional measured capacity $\mu$ of its bottleneck link in bits/s, finite and {@code > 0}
 *                          when present
 * @param eventTime         when the status was measured, epoch milliseconds, {@code >= 0}
 * @param backlogSeconds    optional seconds of compute it has accepted and not finished (the remaining stages of its
 *                          ongoing requests, whether their inputs have arrived or not), finite and {@code >= 0} when
 *                          present; the placement operator predicts each server's backlog from it between reports
 * @param serverClass       optional name of the server's class (its hardware kind, e.g. {@code "a100"}), not blank
 *                          when present; decisions' explanations name it
 * @param memoryBytes       optional memory the server has for model parts, bytes, finite and {@code > 0} when present;
 *                          absent: not modelled (every part fits). The controller never places a part whose bytes
 *                          exceed it
 * @param freeMemoryBytes   optional memory a new part may use on the server now, bytes: {@code memoryBytes} less what
 *                          the parts of its ready and running stages pin (idle parts it can evict count as free),
 *                          finite, {@code >= 0} and not above {@code memoryBytes} when both are given; absent: the
 *                          whole memory. The controller puts a part where it fits now when it can, else where it fits
 *                          the whole memory (it then waits there for pinned parts to finish)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"schemaVersion", "serverId", "up", "opsPerSecond", "ongoingRequests", "cachedModels",
        "linkBitsPerSecond", "eventTime", "backlogSeconds", "serverClass", "memoryBytes",
        "freeMemoryBytes"})
public record ServerTelemetry(
        @JsonProperty(required = true) int schemaVersion,
        @JsonProperty(required = true) String serverId,
        @JsonProperty(required = true) boolean up,
        @JsonProperty(required = true) double opsPerSecond,
        @JsonProperty(required = true) int ongoingRequests,
        @JsonProperty(required = true) List<CachedModel> cachedModels,
        Double linkBitsPerSecond,
        @JsonProperty(required = true) long eventTime,
        Double backlogSeconds,
        String serverClass,
        Double memoryBytes,
        Double freeMemoryBytes) implements TopicRecord {

    public ServerTelemetry {
        Fields.requireVersion(schemaVersion);
        Fields.requireText("serverId", serverId);
        Fields.requireFiniteNonNegative("opsPerSecond", opsPerSecond);
        Fields.requireNonNegative("ongoingRequests", ongoingRequests);
        cachedModels = Fields.copyElements("cachedModels", cachedModels);
        requireDistinctModels(cachedModels);
        if (linkBitsPerSecond != null) {
            Fields.requireFinitePositive("linkBitsPerSecond", linkBitsPerSecond);
        }
        Fields.requireNonNegative("eventTime", eventTime);
        if (backlogSeconds != null) {
            Fields.requireFiniteNonNegative("backlogSeconds", backlogSeconds);
        }
        if (serverClass != null) {
            Fields.requireText("serverClass", serverClass);
        }
        if (memoryBytes != null) {
            Fields.requireFinitePositive("memoryBytes", memoryBytes);
        }
        if (freeMemoryBytes != null) {
            Fields.requireFiniteNonNegative("freeMemoryBytes", freeMemoryBytes);
            if (memoryBytes != null && freeMemoryBytes > memoryBytes) {
                throw new InvalidRecordException("field 'freeMemoryBytes' (" + freeMemoryBytes
                        + ") must not be above field 'memoryBytes' (" + memoryBytes + ")");
            }
        }
    }

    /** A status without free memory (the fields before the controller knew pinned memory). */
    public ServerTelemetry(int schemaVersion, String serverId, boolean up, double opsPerSecond, int ongoingRequests,
            List<CachedModel> cachedModels, Double linkBitsPerSecond, long eventTime, Double backlogSeconds,
            String serverClass, Double memoryBytes) {
        this(schemaVersion, serverId, up, opsPerSecond, ongoingRequests, cachedModels, linkBitsPerSecond, eventTime,
                backlogSeconds, serverClass, memoryBytes, null);
    }

    /** A status without a server class or memory (the fields before heterogeneous servers). */
    public ServerTelemetry(int schemaVersion, String serverId, boolean up, double opsPerSecond, int ongoingRequests,
            List<CachedModel> cachedModels, Double linkBitsPerSecond, long eventTime, Double backlogSeconds) {
        this(schemaVersion, serverId, up, opsPerSecond, ongoingRequests, cachedModels, linkBitsPerSecond, eventTime,
                backlogSeconds, null, null, null);
    }

    /** A status in the current schema version, without a backlog; {@code linkBitsPerSecond} may be null. */
    public static ServerTelemetry of(String serverId, boolean up, double opsPerSecond, int ongoingRequests,
            List<CachedModel> cachedModels, Double linkBitsPerSecond, long eventTime) {
        return of(serverId, up, opsPerSecond, ongoingRequests, cachedModels, linkBitsPerSecond, eventTime, null);
    }

    /** A status in the current schema version; {@code linkBitsPerSecond} and {@code backlogSeconds} may be null. */
    public static ServerTelemetry of(String serverId, boolean up, double opsPerSecond, int ongoingRequests,
            List<CachedModel> cachedModels, Double linkBitsPerSecond, long eventTime, Double backlogSeconds) {
        return new ServerTelemetry(SchemaVersions.CURRENT, serverId, up, opsPerSecond, ongoingRequests, cachedModels,
                linkBitsPerSecond, eventTime, backlogSeconds);
    }

    /** This status with another compute speed (e.g. the speed its outcomes showed), all else unchanged. */
    public ServerTelemetry withOpsPerSecond(double ops) {
        return new ServerTelemetry(schemaVersion, serverId, up, ops, ongoingRequests, cachedModels, linkBitsPerSecond,
                eventTime, backlogSeconds, serverClass, memoryBytes, freeMemoryBytes);
    }

    /**
     * This status with a server class and memory (either may be null: not given), all else unchanged (its free
     * memory too, which must not be above the new memory).
     */
    public ServerTelemetry withClass(String serverClass, Double memoryBytes) {
        return new ServerTelemetry(schemaVersion, serverId, up, opsPerSecond, ongoingRequests, cachedModels,
                linkBitsPerSecond, eventTime, backlogSeconds, serverClass, memoryBytes, freeMemoryBytes);
    }

    /** This status with the memory a new part may use now (null: not given), all else unchanged. */
    public ServerTelemetry withFreeMemoryBytes(Double freeMemoryBytes) {
        return new ServerTelemetry(schemaVersion, serverId, up, opsPerSecond, ongoingRequests, cachedModels,
                linkBitsPerSecond, eventTime, backlogSeconds, serverClass, memoryBytes, freeMemoryBytes);
    }

    private static void requireDistinctModels(List<CachedModel> cachedModels) {
        for (int i = 0; i < cachedModels.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (cachedModels.get(i).model().equals(cachedModels.get(j).model())) {
                    throw new InvalidRecordException("field 'cachedModels[" + i + "].model' ('"
                            + cachedModels.get(i).model() + "') is listed twice");
                }
            }
        }
    }

    @Override
    public String key() {
        return serverId;
    }
}
