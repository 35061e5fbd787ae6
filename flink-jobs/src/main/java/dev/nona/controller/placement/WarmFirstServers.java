package dev.nona.controller.placement;

import dev.nona.placement.ServerLedger;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * The model registry as the placement operator sees it: which servers are up, which hold each model warm, and how
 * loaded each is, from the latest telemetry of every server plus a ledger of this operator's own requests since
 * that server's last report (policy-model's {@link ServerLedger}: the reported backlog drains at one second of work
 * per second, and every request placed there adds its stages' $\sum p^t/\nu$ behind it). Maps a request's parts to
 * servers warm first (the thesis's colocation rule, target 3 by default): among the warm servers with fewer
 * ongoing requests than the target, the one with the least predicted backlog; when there is none, the up server
 * with the least predicted backlog; further parts of the same request go to distinct servers while enough are up,
 * and when every up server is taken, any up server uniformly.
 *
 * <p>Why the ledger: telemetry is about a second old. Without it, every request between two reports goes to the
 * servers that looked free at the last one; in the simulator (zoo workload, 70% load, 5 seeds) that made the
 * warm-first rule no better than uniform sampling ({@code nona-stale}, 0.431 s mean JCT vs 0.436 s); counting its
 * own requests until the next report brought 0.256 s; predicting when they finish from their work, as this class
 * does ({@code nona-controller}), 0.1465 s, level with join-the-shortest-queue on exact live queues. Each placement
 * subtask keeps its own ledger and sees only its own requests between two reports, so each owns every $p$-th up
 * server (parallelism $p$) and keeps to its own where it can (in the simulator at parallelism 2,
 * {@code nona-controller-p2}: level with {@code spark-fair}, where sharing every server would cost 50%). The
 * ledger is not checkpointed (after a restore the next reports rebuild it).
 *
 * <p>The clock is the requests' event time: a request drains the backlogs up to its own event time (at most 5 s
 * after the newest report: a client clock running ahead must not freeze a server's backlog), a report resets a
 * server's entry at the report's event time (see {@link ServerLedger} for out-of-order times).
 *
 * <p>Why not policy-model's {@code modelaware.WarmFirstServerPolicy} over a {@code ModelRegistry}: that pair serves
 * the thesis simulator, whose registry simulates each server's LRU memory and needs memory and model sizes;
 * telemetry reports the cached models as facts (sizes may be 0, no server memory).
 *
 * <p>Rebuilt when telemetry changes ({@link #of(Collection, int, WarmFirstServers)} carries the ledger over: the
 * entries of servers whose report did not change as they are, the others reset by their new report); a pick is
 * $O(N)$ at worst and does not allocate. Not thread-safe: one instance per placement subtask.
 *
 * <p>Based on: the model-aware scheduling thesis (SigmaOS + Ray Serve), colocation with a target of ongoing
 * requests and MASched's count of routed requests; join-the-shortest-queue on queued work.
 */
public final class WarmFirstServers {
    private static final int[] NONE = new int[0];
    /** How far a request's event time may run ahead of the newest telemetry report (reports come about every second). */
    static final long MAX_AHEAD_OF_TELEMETRY_MILLIS = 5_000;

    private final String[] up;
    private final ServerTelemetry[] reports;
    private final Map<String, int[]> warm;
    /** Null when no server is up. */
    private final ServerLedger ledger;
    private final TakenParts taken = new TakenParts();
    /** The newest event time among the up servers' reports (epoch ms). */
    private final long newestReport;

    private WarmFirstServers(List<ServerTelemetry> up, Map<String, int[]> warm, int target) {
        this.up = up.stream().map(ServerTelemetry::serverId).toArray(String[]::new);
        this.reports = up.toArray(ServerTelemetry[]::new);
        this.warm = warm;
        this.newestReport = up.stream().mapToLong(ServerTelemetry::eventTime).max().orElse(Long.MAX_VALUE - MAX_AHEAD_OF_TELEMETRY_MILLIS);
        this.ledger = up.isEmpty() ? null
                : new ServerLedger(up.stream().mapToDouble(ServerTelemetry::opsPerSecond).toArray(), target);
    }

    /** From the latest status of each server, with an empty ledger; servers that are down are never chosen. */
    public static WarmFirstServers of(Collection<ServerTelemetry> latest, int targetOngoingRequests) {
        return of(latest, targetOngoingRequests, null);
    }

    /**
     * From the latest status of each server, keeping {@code previous}'s ledger entries for the servers whose report
     * is unchanged (a server that reported again starts from its new report, with the requests placed after it).
     */
    public static WarmFirstServers of(Collection<ServerTelemetry> latest, int targetOngoingRequests, WarmFirstServers previous) {
        return of(latest, targetOngoingRequests, previous, 0, 1);
    }

    /**
     * As {@link #of(Collection, int, WarmFirstServers)} for placement subtask {@code subtask} of {@code parallelism}:
     * it owns every {@code parallelism}-th up server in id order, starting at its index, and prefers them
     * ({@link ServerLedger#own}): each subtask's ledger sees only its own requests between two reports.
     */
    public static WarmFirstServers of(Collection<ServerTelemetry> latest, int targetOngoingRequests, WarmFirstServers previous,
            int subtask, int parallelism) {
        if (targetOngoingRequests < 1) {
            throw new IllegalArgumentException("placement.target-ongoing-requests (" + targetOngoingRequests + ") must be >= 1");
        }
        Map<String, ServerTelemetry> sorted = new TreeMap<>();
        latest.forEach(s -> sorted.put(s.serverId(), s));
        List<ServerTelemetry> up = new ArrayList<>();
        Map<String, List<Integer>> warm = new HashMap<>();
        for (ServerTelemetry s : sorted.values()) {
            if (!s.up()) {
                continue;
            }
            int index = up.size();
            up.add(s);
            for (CachedModel m : s.cachedModels()) {
                warm.computeIfAbsent(m.model(), k -> new ArrayList<>()).add(index);
            }
        }
        Map<String, int[]> warmArrays = new HashMap<>();
        warm.forEach((m, list) -> warmArrays.put(m, list.stream().mapToInt(Integer::intValue).toArray()));
        WarmFirstServers next = new WarmFirstServers(up, warmArrays, targetOngoingRequests);
        if (next.ledger != null) {
            next.ledger.own(subtask, parallelism);
            next.fillLedger(previous);
        }
        return next;
    }

    private void fillLedger(WarmFirstServers previous) {
        Map<String, Integer> index = new HashMap<>();
        if (previous != null && previous.ledger != null) {
            ledger.continueMean(previous.ledger);
            for (int i = 0; i < previous.up.length; i++) {
                index.put(previous.up[i], i);
            }
        }
        for (int i = 0; i < up.length; i++) {
            Integer old = index.get(up[i]);
            if (old != null) {
                ledger.copy(i, previous.ledger, old);
            }
            if (old == null || !previous.reports[old].equals(reports[i])) {
                ServerTelemetry r = reports[i];
                ledger.report(i, r.ongoingRequests(), r.backlogSeconds() == null ? Double.NaN : r.backlogSeconds(),
                        seconds(r.eventTime()));
            }
        }
    }

    /** Epoch milliseconds as the ledger's clock, seconds. */
    static double seconds(long epochMillis) {
        return epochMillis / 1000.0;
    }

    /**
     * A request's time on the ledger's clock: its event time, but at most {@link #MAX_AHEAD_OF_TELEMETRY_MILLIS}
     * after the newest report, so that a client whose clock runs ahead cannot push a server's predicted backlog
     * into the future (it would stop draining until the real time caught up).
     */
    private double requestSeconds(long eventTime) {
        return seconds(Math.min(eventTime, newestReport + MAX_AHEAD_OF_TELEMETRY_MILLIS));
    }

    public int upCount() {
        return up.length;
    }

    /** The id of server {@code index}. */
    public String id(int index) {
        return up[index];
    }

    /** The up servers holding {@code model} warm, whatever their load (indices; do not modify). */
    public int[] warm(String model) {
        return warm.getOrDefault(model, NONE);
    }

    /** Requests in flight on server {@code index} at {@code eventTime} (epoch ms) as this operator predicts them. */
    public int ongoing(int index, long eventTime) {
        return ledger.ongoing(index, requestSeconds(eventTime));
    }

    /** Seconds of work on server {@code index} at {@code eventTime} (epoch ms) as this operator predicts them. */
    public double backlogSeconds(int index, long eventTime) {
        return ledger.backlog(index, requestSeconds(eventTime));
    }

    /** One server for a request of {@code model} at {@code eventTime} (see the class comment). */
    public int pick(String model, long eventTime, RandomGenerator rng) {
        return pickOther(warm(model), NONE, 0, eventTime, rng);
    }

    /**
     * A server for a part of a request at {@code eventTime}, not in {@code taken[0..n)} while enough servers are up:
     * the warm one under the target with the least predicted backlog, else the up one with the least predicted
     * backlog, else (every up server taken) any up server. Does not record the request: see {@link #record}.
     */
    public int pickOther(int[] warm, int[] taken, int n, long eventTime, RandomGenerator rng) {
        if (ledger == null) {
            throw new IllegalStateException("no server is up");
        }
        this.taken.parts = taken;
        this.taken.count = n;
        return ledger.pick(warm, this.taken, requestSeconds(eventTime), rng);
    }

    /**
     * Records a request placed at {@code eventTime}: task {@code t < tasks} on server {@code servers[t]}, needing
     * {@code ops[t]} operations (one request on each server it uses, with the work of its tasks there).
     */
    public void record(int[] servers, double[] ops, int tasks, long eventTime) {
        ledger.assignRequest(servers, ops, tasks, requestSeconds(eventTime));
    }

    /** The parts a request already uses, as the ledger asks. */
    private static final class TakenParts implements ServerLedger.Taken {
        int[] parts = WarmFirstServers.NONE;
        int count;

        @Override
        public boolean taken(int server) {
            for (int i = 0; i < count; i++) {
                if (parts[i] == server) {
                    return true;
                }
            }
            return false;
        }
    }
}
