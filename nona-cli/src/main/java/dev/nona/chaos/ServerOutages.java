package dev.nona.chaos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * When each server was silent, by report time: from the last report it made before it fell silent to the first it
 * made after (none yet: silent still). Only a server's own silence counts, not a stalled telemetry path (the
 * controller keeps placing on the servers last known live during a stall, by design). Written by whoever makes the
 * reports, read by the invariant check; thread safe.
 */
final class ServerOutages {
    /**
     * One silence of a server.
     *
     * @param lastReport  epoch ms of the last report made before it (its {@code eventTime})
     * @param firstReport epoch ms of the first report made after it, {@link Long#MAX_VALUE} while silent
     */
    record Outage(String server, long lastReport, long firstReport) {
        /** Whether a request made at {@code t} falls in it. */
        boolean covers(long t) {
            return t > lastReport && t < firstReport;
        }
    }

    private final Map<String, List<Outage>> outages = new HashMap<>();

    /** {@code server} falls silent; its last report was made at {@code lastReport}. */
    synchronized void silent(String server, long lastReport) {
        List<Outage> list = outages.computeIfAbsent(server, k -> new ArrayList<>());
        if (!list.isEmpty() && list.get(list.size() - 1).firstReport() == Long.MAX_VALUE) {
            throw new IllegalStateException("BUG: " + server + " is silent already");
        }
        list.add(new Outage(server, lastReport, Long.MAX_VALUE));
    }

    /** {@code server} reported at {@code madeAt}: if it was silent, its silence ends there. */
    synchronized void reported(String server, long madeAt) {
        List<Outage> list = outages.get(server);
        if (list != null && !list.isEmpty()) {
            Outage last = list.get(list.size() - 1);
            if (last.firstReport() == Long.MAX_VALUE) {
                list.set(list.size() - 1, new Outage(server, last.lastReport(), madeAt));
            }
        }
    }

    /** The silence of {@code server} that a request made at {@code t} falls in, if any. */
    synchronized Optional<Outage> at(String server, long t) {
        List<Outage> list = outages.get(server);
        if (list == null) {
            return Optional.empty();
        }
        for (Outage o : list) {
            if (o.covers(t)) {
                return Optional.of(o);
            }
        }
        return Optional.empty();
    }
}
