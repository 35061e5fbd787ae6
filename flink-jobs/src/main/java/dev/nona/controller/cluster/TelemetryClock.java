package dev.nona.controller.cluster;

import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The clock server liveness is judged on, kept by the telemetry stream itself: one rule for the control loop
 * ({@code loop.ClusterWatch}) and the placement operator (which also holds a request until this clock has reached
 * the request's time: {@code placement.TelemetryGate}).
 *
 * <ul>
 *   <li>A report's time is when it was made, its {@code eventTime}, but never later than its arrival:
 *       {@link #reportTime}. A report older than the timeout $T$ when it arrives is <em>stale</em> ({@link #isStale}):
 *       it never makes a server live, nor counts for the stream's progress, unless the server is live now (it is
 *       then still heard at its time).
 *   <li>The stream's progress $P$ is a watermark over the servers, as Flink's is over source splits: the oldest
 *       newest report time among the servers that are not <em>idle</em>, never going back. Silence is judged on
 *       {@link #clock}$(now) = \min(now, P + T)$. A server that is not idle is therefore never silent: its newest
 *       report $n_s \ge P$, so $clock - n_s \le T$. One server's fresh reports cannot move the clock past the
 *       backlog of the others (the flap of a resume, when the first fresh report used to mark every other live
 *       server down for the moment before its own reports arrived).
 *   <li>A server is idle when the stream has <em>flowed</em> for longer than $T$ since its last report arrived
 *       (a server that died, or left): idle servers do not hold the clock back, and a server is idle until its next
 *       report arrives. Flowing time is the processing time, except in a stall: a gap between arrivals longer than
 *       $T$, in which no server at all reported (a broker outage, a stalled telemetry path), counts $g = T/2$ while
 *       it lasts and nothing more once the stream resumes. So a server that reported within $T - g$ before the
 *       stream stalled (every live one, when servers report at least twice per timeout: the default is once a second
 *       against 3 s) is not idle when it resumes, and has $T$ minus its silence before the stall to deliver its
 *       backlog; a server silent for longer than $g$ before the stall is idle in it, and not kept live by it. After a
 *       restore ({@link #restore}) each server counts as silent for as long as its report is older than the newest.
 *   <li>The partition rule: a server also turns idle once its own {@code cluster-telemetry} partition has been
 *       read up to a report made more than $T$ after its newest ({@link #observe(String, int, long, long, boolean)}).
 *       A partition is read in the order it was written, so when a dead server's partition has been read past its
 *       silence, nothing of it is still to come, and it need not hold the clock back for the flowing time above (the
 *       hold on requests that paced the drain after a broker outage: docs/benchmarks.md, "What paces the drain
 *       after a broker outage"). The price: when several producers write one partition and one of them delivers its
 *       reports more than $T$ after the others' (a producer still flushing what it buffered in a broker outage), its
 *       servers count as idle, and may be marked silent, until its reports arrive.
 *   <li>When no report at all arrived for longer than the timeout (processing time since the last arrival) the
 *       stream is stalled ({@link #isStalled}): the clock stops at $P + T$, so the servers that were not idle stay
 *       live; the control loop says so once ({@code TELEMETRY_STALLED}).
 * </ul>
 *
 * <p>While reports flow, $P$ is at most a report period plus its delivery behind the processing time, so the clock
 * is the processing time. When a server dies the clock stops at its last report's time plus $T$ until it is idle,
 * its last arrival plus $T$: the delivery delay of that report. Until the first report the clock is the processing
 * time.
 *
 * <p>Per report $O(\log N)$ for $N$ servers; {@link #clock} is $O(1)$ plus $O(\log N)$ per server turning idle. Not
 * thread safe; transient: after a restore the caller gives it the checkpointed reports ({@link #restore}).
 */
public final class TelemetryClock {
    /** One server as the clock sees it. */
    private static final class Server {
        final String id;
        /** Its newest report time counted (epoch ms). */
        long newest = Long.MIN_VALUE;
        /** The flowing time of its last counted arrival. */
        long arrivedAt;
        boolean idle = true;
        /** The {@code cluster-telemetry} partition its reports come on ({@link #NO_PARTITION} if not known). */
        int partition = NO_PARTITION;

        Server(String id) {
            this.id = id;
        }
    }

    /** A report whose partition is not known (a restore, a test): it takes no part in the partition rule. */
    public static final int NO_PARTITION = -1;

    /** One {@code cluster-telemetry} partition: how far it has been read, and its servers not idle. */
    private static final class Partition {
        /** The newest report time read on it. */
        long read = Long.MIN_VALUE;
        /** Its servers not idle, oldest newest report first. */
        final TreeSet<Server> byNewest = new TreeSet<>(
                Comparator.<Server>comparingLong(s -> s.newest).thenComparing(s -> s.id));
    }

    private final long timeoutMillis;
    private final Map<String, Server> servers = new HashMap<>();
    private final Map<Integer, Partition> partitions = new HashMap<>();
    /** The servers not idle, oldest arrival first. */
    private final TreeSet<Server> byArrival = new TreeSet<>(
            Comparator.<Server>comparingLong(s -> s.arrivedAt).thenComparing(s -> s.id));
    /** The newest report times of the servers not idle, with their counts. */
    private final TreeMap<Long, Integer> newest = new TreeMap<>();
    /** Flowing time at the last arrival (ms). */
    private long flow;
    private long lastArrival = Long.MIN_VALUE;
    private long progress = Long.MIN_VALUE;

    /** @param timeoutMillis {@code cluster.liveness-timeout}, {@code > 0} */
    public TelemetryClock(long timeoutMillis) {
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("cluster.liveness-timeout (" + timeoutMillis + " ms) must be > 0");
        }
        this.timeoutMillis = timeoutMillis;
    }

    /** When a report was made: its {@code eventTime}, but never later than its arrival. */
    public static long reportTime(long eventTimeMillis, long arrivalMillis) {
        return Math.min(eventTimeMillis, arrivalMillis);
    }

    /** The reports oldest first (by {@code eventTime}), the order a rebuilt view takes them in. */
    public static List<ServerTelemetry> inReportOrder(Iterable<ServerTelemetry> reports) {
        List<ServerTelemetry> out = new ArrayList<>();
        reports.forEach(out::add);
        out.sort(Comparator.comparingLong(ServerTelemetry::eventTime));
        return out;
    }

    /** Whether a report made at {@code reportTime} is older than the liveness timeout at {@code arrival}. */
    public boolean isStale(long reportTime, long arrivalMillis) {
        return arrivalMillis - reportTime > timeoutMillis;
    }

    /**
     * Whether a report made at {@code reportTime} and arriving at {@code arrival} is applied: a timely one always; a
     * stale one only to a server live now (it may keep a live server heard, never make one live).
     */
    public boolean applies(long reportTime, long arrivalMillis, boolean liveNow) {
        return liveNow || !isStale(reportTime, arrivalMillis);
    }

    /**
     * A report of {@code serverId} made at {@code reportTime} arrived at {@code arrival} (processing time, not
     * earlier than the previous arrival's): the stream flowed; if the report {@link #applies}, the server is not
     * idle and its newest report time is at least this one.
     *
     * @param liveNow whether the server is live now (before this report)
     */
    public void observe(String serverId, long reportTime, long arrivalMillis, boolean liveNow) {
        observe(serverId, NO_PARTITION, reportTime, arrivalMillis, liveNow);
    }

    /**
     * As {@link #observe(String, long, long, boolean)}, for a report read from {@code cluster-telemetry} partition
     * {@code partition} (or {@link #NO_PARTITION}): the partition has been read up to a report made at
     * {@code reportTime}, and its servers not heard for longer than the timeout before that turn idle.
     */
    public void observe(String serverId, int partition, long reportTime, long arrivalMillis, boolean liveNow) {
        arrive(arrivalMillis);
        if (applies(reportTime, arrivalMillis, liveNow)) {
            Server s = servers.computeIfAbsent(serverId, Server::new);
            if (s.partition != partition) {
                if (!s.idle) {
                    unlist(s); // out of the old partition's index; heard lists it again
                    s.idle = true;
                }
                s.partition = partition;
            }
            heard(s, reportTime, flow);
        }
        read(partition, reportTime);
        advance();
    }

    /**
     * Partition {@code p} has been read up to a report made at {@code reportTime}: a server of it whose newest report
     * is older than that by more than the timeout made none in between that has reached the controller, and turns
     * idle (the partition rule). A partition is read in the order its records were written, so after an outage a
     * dead server's partition tells it apart as soon as its backlog has been read, instead of after the timeout of
     * flowing time.
     */
    private void read(int p, long reportTime) {
        if (p == NO_PARTITION) {
            return;
        }
        Partition part = partitions.computeIfAbsent(p, k -> new Partition());
        part.read = Math.max(part.read, reportTime);
        boolean changed = false;
        while (!part.byNewest.isEmpty() && part.read - part.byNewest.first().newest > timeoutMillis) {
            Server s = part.byNewest.first();
            unlist(s);
            s.idle = true;
            changed = true;
        }
        if (changed) {
            advance();
        }
    }

    /**
     * After a start or a restore: the latest checkpointed report of each server the clock does not know yet,
     * arriving at {@code arrival}. Each counts as silent, in flowing time, for as long as it is older than the newest
     * of them (what it was when the checkpoint was taken, as far as the reports tell): one more than the timeout
     * behind is idle.
     */
    public void restore(Iterable<ServerTelemetry> reports, long arrivalMillis) {
        arrive(arrivalMillis);
        long newestMade = progress;
        for (ServerTelemetry r : reports) {
            newestMade = Math.max(newestMade, reportTime(r.eventTime(), arrivalMillis));
        }
        for (ServerTelemetry r : reports) {
            if (servers.containsKey(r.serverId())) {
                continue;
            }
            long made = reportTime(r.eventTime(), arrivalMillis);
            Server s = new Server(r.serverId());
            servers.put(s.id, s);
            if (newestMade - made > timeoutMillis) {
                s.newest = made; // idle: silent for longer than the timeout at the checkpoint
            } else {
                heard(s, made, flow - (newestMade - made));
            }
        }
        advance();
    }

    /** The time silence is judged at: $\min(now, P + T)$, or {@code now} before any report counted. */
    public long clock(long nowMillis) {
        idleAt(flowAt(nowMillis));
        return progress == Long.MIN_VALUE ? nowMillis : Math.min(nowMillis, progress + timeoutMillis);
    }

    /**
     * Whether no report arrived for longer than the timeout (processing time; false before any report). A controller
     * catching up on a backlog is behind, not stalled: reports arrive.
     */
    public boolean isStalled(long nowMillis) {
        return lastArrival != Long.MIN_VALUE && nowMillis - lastArrival > timeoutMillis;
    }

    /** When the stream counts as stalled if no report arrives before ({@link Long#MAX_VALUE} before any report). */
    public long stallAt() {
        return lastArrival == Long.MIN_VALUE ? Long.MAX_VALUE : lastArrival + timeoutMillis + 1;
    }

    /**
     * When, if no report arrives before, the next server turns idle (and the clock may move on past $P + T$):
     * {@link Long#MAX_VALUE} if none does before the stream pauses.
     */
    public long nextChange() {
        if (byArrival.isEmpty() || lastArrival == Long.MIN_VALUE) {
            return Long.MAX_VALUE;
        }
        long after = byArrival.first().arrivedAt + timeoutMillis + 1 - flow; // flowing time still to go
        return after > graceMillis() ? Long.MAX_VALUE : lastArrival + Math.max(0, after);
    }

    /**
     * When the clock reaches {@code deadline} if no report arrives before: {@code deadline} itself if the clock can
     * get there now, else when it may move on ({@link #nextChange}: ask again then), else {@link Long#MAX_VALUE}.
     */
    public long reaches(long deadline) {
        if (deadline == Long.MAX_VALUE || progress == Long.MIN_VALUE || deadline <= progress + timeoutMillis) {
            return deadline;
        }
        return nextChange();
    }

    /** The stream's progress $P$ ({@link Long#MIN_VALUE} before any report counted). */
    public long progress() {
        return progress;
    }

    public long timeoutMillis() {
        return timeoutMillis;
    }

    /** $g$, half the timeout: how much of a gap counts as flowing time while it lasts. */
    public long graceMillis() {
        return timeoutMillis / 2;
    }

    /**
     * The stream flowed up to {@code arrival}: a gap up to the timeout counts in full; a longer one (a stall) counted
     * $g$ while it lasted, and nothing more. The servers that leaves idle turn idle.
     */
    private void arrive(long arrivalMillis) {
        if (lastArrival != Long.MIN_VALUE) {
            long gap = Math.max(0, arrivalMillis - lastArrival);
            if (gap <= timeoutMillis) {
                flow += gap;
                idleAt(flow);
            } else {
                idleAt(flow + graceMillis());
            }
        }
        lastArrival = Math.max(lastArrival, arrivalMillis);
    }

    /** Flowing time at {@code now}: the current gap counts up to $g$ until the next arrival says how long it was. */
    private long flowAt(long nowMillis) {
        return lastArrival == Long.MIN_VALUE ? flow : flow + Math.min(Math.max(0, nowMillis - lastArrival), graceMillis());
    }

    private void heard(Server s, long reportTime, long arrivedAt) {
        if (!s.idle) {
            unlist(s);
        }
        s.newest = Math.max(s.newest, reportTime);
        s.arrivedAt = arrivedAt;
        s.idle = false;
        byArrival.add(s);
        newest.merge(s.newest, 1, Integer::sum);
        if (s.partition != NO_PARTITION) {
            partitions.computeIfAbsent(s.partition, k -> new Partition()).byNewest.add(s);
        }
    }

    /** Takes a server not idle out of the indexes (before its keys change, or it turns idle). */
    private void unlist(Server s) {
        byArrival.remove(s);
        remove(s.newest);
        if (s.partition != NO_PARTITION) {
            Partition part = partitions.get(s.partition);
            if (part != null) {
                part.byNewest.remove(s);
            }
        }
    }

    /** The servers not heard for longer than the timeout of flowing time at {@code flowNow} turn idle. */
    private void idleAt(long flowNow) {
        boolean changed = false;
        while (!byArrival.isEmpty() && flowNow - byArrival.first().arrivedAt > timeoutMillis) {
            Server s = byArrival.first();
            unlist(s);
            s.idle = true;
            changed = true;
        }
        if (changed) {
            advance();
        }
    }

    private void remove(long reportTime) {
        newest.computeIfPresent(reportTime, (k, c) -> c == 1 ? null : c - 1);
    }

    /** $P$ moves to the oldest newest report of the servers not idle, never back. */
    private void advance() {
        if (!newest.isEmpty()) {
            progress = Math.max(progress, newest.firstKey());
        }
    }
}
