package dev.nona.chaos;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One fault of a {@link ChaosSchedule}: what, when (from the first request of the traffic) and for how long.
 *
 * @param kind           what is done
 * @param atMillis       when it begins, from the start of the traffic, {@code >= 0}
 * @param durationMillis how long it lasts, {@code >= 0} (0 for a server silent for good: it never ends)
 * @param server         the server it silences ({@code s<k>}), or {@code ""} for a fault not about one server
 * @param perSecond      malformed records per second of a {@link FaultKind#MALFORMED_BURST}, else 0
 */
public record ScheduledFault(FaultKind kind, long atMillis, long durationMillis, String server, int perSecond) {
    public ScheduledFault {
        Objects.requireNonNull(kind, "fault kind");
        if (atMillis < 0 || durationMillis < 0) {
            throw new IllegalArgumentException("fault " + kind.key() + " at " + atMillis + " ms for " + durationMillis
                    + " ms: both must be >= 0");
        }
        Objects.requireNonNull(server, "server");
        if (kind.targetsServer() == server.isEmpty()) {
            throw new IllegalArgumentException("fault " + kind.key() + ": server ('" + server + "') must be "
                    + (kind.targetsServer() ? "named" : "empty"));
        }
        if ((kind == FaultKind.MALFORMED_BURST) != (perSecond > 0) || perSecond < 0) {
            throw new IllegalArgumentException("fault " + kind.key() + ": perSecond (" + perSecond + ") must be "
                    + (kind == FaultKind.MALFORMED_BURST ? "> 0" : "0"));
        }
    }

    /** When it ends, from the start of the traffic. */
    public long endMillis() {
        return atMillis + durationMillis;
    }

    /** As the JSON output prints it (seconds with millisecond precision). */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind.key());
        m.put("atSeconds", atMillis / 1000.0);
        m.put("durationSeconds", kind == FaultKind.SERVER_SILENT_FOR_GOOD ? "for good" : durationMillis / 1000.0);
        if (!server.isEmpty()) {
            m.put("server", server);
        }
        if (perSecond > 0) {
            m.put("perSecond", perSecond);
        }
        return m;
    }
}
