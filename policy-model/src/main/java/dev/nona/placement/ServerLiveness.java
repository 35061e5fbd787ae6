package dev.nona.placement;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * Which servers have gone silent: a server (by index) heard last more than the liveness timeout ago is silent until
 * it is heard again. Kept as a list in order of the time each server was last heard (a report moves its server to
 * the end), so a report and a check for silent servers cost $O(1)$ each, whatever the number of servers.
 *
 * <p>The clock is the caller's: the controller passes report times and judges silence on the telemetry stream's own
 * clock ({@code dev.nona.controller.cluster.TelemetryClock} in flink-jobs); other callers may pass processing time.
 * A clock going back is treated as standing still (a report counts at the later of its time and the clock). Not
 * thread-safe.
 */
public final class ServerLiveness {
    private final long timeoutMillis;
    private long[] heardAt = new long[0];
    private int[] prev = new int[0];
    private int[] next = new int[0];
    private boolean[] listed = new boolean[0];
    private int head = -1;
    private int tail = -1;
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

    /** Server {@code s} (an index {@code >= 0}) was heard at {@code now}: it is live until {@code now + timeout}. */
    public void heard(int s, long now) {
        clock = Math.max(clock, now);
        if (s >= heardAt.length) {
            int c = Math.max(s + 1, 2 * heardAt.length);
            heardAt = Arrays.copyOf(heardAt, c);
            prev = Arrays.copyOf(prev, c);
            next = Arrays.copyOf(next, c);
            listed = Arrays.copyOf(listed, c);
        }
        unlink(s);
        heardAt[s] = clock;
        prev[s] = tail;
        next[s] = -1;
        if (tail >= 0) {
            next[tail] = s;
        } else {
            head = s;
        }
        tail = s;
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
        while (head >= 0 && clock - heardAt[head] > timeoutMillis) {
            int s = head;
            unlink(s);
            silent.accept(s);
        }
    }

    /** When the next server goes silent if none is heard before, or {@link Long#MAX_VALUE}. */
    public long nextDeadline() {
        return head < 0 ? Long.MAX_VALUE : heardAt[head] + timeoutMillis + 1;
    }

    /** When server {@code s} was last heard (0 if never). */
    public long heardAt(int s) {
        return s < heardAt.length ? heardAt[s] : 0;
    }

    private void unlink(int s) {
        if (!listed[s]) {
            return;
        }
        if (prev[s] >= 0) {
            next[prev[s]] = next[s];
        } else {
            head = next[s];
        }
        if (next[s] >= 0) {
            prev[next[s]] = prev[s];
        } else {
            tail = prev[s];
        }
        listed[s] = false;
    }
}
