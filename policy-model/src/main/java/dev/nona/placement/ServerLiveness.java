package dev.nona.placement;

import java.util.Arrays;
import java.util.TreeSet;
import java.util.function.IntConsumer;

/**
 * Which servers have gone silent: a server (by index) heard last more than the liveness timeout ago is silent until
 * it is heard again. Kept in order of the time each server was last heard, so a report costs $O(\log N)$ and a check
 * for silent servers $O(\log N)$ per server it finds silent, for $N$ servers.
 *
 * <p>The clock is the caller's: the controller passes report times and judges silence on the telemetry stream's own
 * clock ({@code dev.nona.controller.cluster.TelemetryClock} in flink-jobs); other callers may pass processing time.
 * Only {@link #expire} moves the clock (a clock going back is treated as standing still); a report counts at its own
 * time, never moving the clock. Why: when one server's reports are read ahead of the others' (after a broker outage
 * the controller reads each {@code cluster-telemetry} partition's backlog in turn), a clock pushed to the newest report
 * heard marked every server whose backlog was still unread silent (12 of 15 live servers within a millisecond of the
 * resume, docs/benchmarks.md, "What paces the drain after a broker outage"); the caller's clock does not run ahead of
 * a backlog. Not thread-safe.
 */
public final class ServerLiveness {
    private final long timeoutMillis;
    private long[] heardAt = new long[0];
    private boolean[] listed = new boolean[0];
    /** The listed servers, oldest heard first. */
    private final TreeSet<Integer> byHeard = new TreeSet<>((a, b) -> {
        int c = Long.compare(heardAt[a], heardAt[b]);
        return c != 0 ? c : Integer.compare(a, b);
    });
    private long clock = Long.MIN_VALUE;

    /** @param timeoutMillis how long a server may go unheard, {@code > 0} */
    public ServerLiveness(long timeoutMillis) {
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("cluster.liveness-timeout (" + timeoutMillis + " ms) must be > 0");
        }
        this.timeoutMillis = timeoutMillis;
    }

    public long timeoutMillis() {
        return timeoutMillis;
    }

    /**
     * Server {@code s} (an index {@code >= 0}) was heard at {@code reportTime}: it is live until {@code reportTime +
     * timeout} on the clock (or later, if it was heard later before: a server's time does not go back while it is
     * live).
     */
    public void heard(int s, long reportTime) {
        if (s >= heardAt.length) {
            int c = Math.max(s + 1, 2 * heardAt.length);
            heardAt = Arrays.copyOf(heardAt, c);
            listed = Arrays.copyOf(listed, c);
        }
        long at = listed[s] ? Math.max(heardAt[s], reportTime) : reportTime;
        unlink(s);
        heardAt[s] = at;
        byHeard.add(s);
        listed[s] = true;
    }

    /** Forgets server {@code s} (it is down by its own report, or removed): it cannot go silent. */
    public void forget(int s) {
        if (s < listed.length) {
            unlink(s);
        }
    }

    /** Gives each server silent at {@code now} (heard last before {@code now - timeout}) to {@code silent}, once. */
    public void expire(long now, IntConsumer silent) {
        clock = Math.max(clock, now);
        while (!byHeard.isEmpty() && clock - heardAt[byHeard.first()] > timeoutMillis) {
            int s = byHeard.first();
            unlink(s);
            silent.accept(s);
        }
    }

    /** When the next server goes silent if none is heard before, or {@link Long#MAX_VALUE}. */
    public long nextDeadline() {
        return byHeard.isEmpty() ? Long.MAX_VALUE : heardAt[byHeard.first()] + timeoutMillis + 1;
    }

    /** When server {@code s} was last heard (0 if never). */
    public long heardAt(int s) {
        return s < heardAt.length ? heardAt[s] : 0;
    }

    private void unlink(int s) {
        if (!listed[s]) {
            return;
        }
        byHeard.remove(s);
        listed[s] = false;
    }
}
