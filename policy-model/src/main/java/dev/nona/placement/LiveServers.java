package dev.nona.placement;

import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;
import java.util.function.ToDoubleFunction;
import java.util.random.RandomGenerator;

/**
 * The servers as the controller's placement sees them: which are live, which hold each model warm, and how loaded
 * each is, from the latest report of every server plus a ledger of this placer's own requests since that server's
 * last report ({@link ServerLedger}: the reported backlog drains at one second of work per second, and every
 * request placed there adds its stages' $\sum p^t/\nu$ behind it). Maps a request's parts to servers warm first
 * (the thesis's colocation rule; target 2 by default, the thesis uses 3): among the warm servers with fewer ongoing requests than the
 * target, the one with the least predicted backlog; when there is none, the up server with the least predicted
 * backlog; further parts of the same request go to distinct servers while enough are up, and when every up server
 * is taken, any up server uniformly. The Flink placement operator and the simulator's {@code nona-controller}
 * policy both place through this class and {@link ControllerPlacement}; its API knows no Kafka or Flink type
 * (server ids, the report's fields, epoch milliseconds).
 *
 * <p>A server is used only while it is <em>live</em>: its latest report says it is up with a compute rate above 0,
 * and it has been heard within the liveness timeout on the caller's processing-time clock ({@link ServerLiveness};
 * {@link #expireSilent} runs before every placement, so a server that stops reporting stops receiving stages even
 * if no report arrives at all). Its next report makes it live again.
 *
 * <p>Why the ledger: telemetry is about a second old. Without it, every request between two reports goes to the
 * servers that looked free at the last one; in the simulator (zoo workload, 70% load, 5 seeds) that made the
 * warm-first rule no better than uniform sampling; predicting when its own requests finish from their work, as
 * this class does, brought the controller level with join-the-shortest-queue on exact live queues. Each placement
 * subtask keeps its own ledger and sees only its own requests between two reports, so each owns a share of the
 * servers (by a hash of the server id: the same share whatever order the reports come in) and keeps to its own
 * where it can.
 *
 * <p>The ledger's clock is the requests' event time: a request drains the backlogs up to its own event time (at
 * most 5 s after the newest report: a client clock running ahead must not freeze a server's backlog), a report
 * resets a server's entry at the report's event time (see {@link ServerLedger} for out-of-order times).
 *
 * <p>Cost: a report ({@link #report}) is $O(w \log N)$ for a server warm for $w$ models (the ledger's index), a
 * pick $O(\log N)$ plus the servers it skips (see {@link ServerLedger}); neither scans the servers, and a pick
 * does not allocate. Servers keep their index once seen (a down or silent server keeps its entry). Not
 * thread-safe: one instance per placement subtask.
 *
 * <p>Based on: the model-aware scheduling thesis (SigmaOS + Ray Serve), colocation with a target of ongoing
 * requests and MASched's count of routed requests; join-the-shortest-queue on queued work.
 */
public final class LiveServers {
    private static final int[] NONE = new int[0];
    /** How far a request's event time may run ahead of the newest report (reports come about every second). */
    static final long MAX_AHEAD_OF_TELEMETRY_MILLIS = 5_000;
    /** A liveness timeout that never expires, for uses without a clock (tests, one-shot tools, the simulator). */
    public static final long NO_LIVENESS_TIMEOUT = Long.MAX_VALUE / 4;
    /**
     * The controller's default target of ongoing requests per server: 2 (the thesis's is 3). With the ledger's
     * count of interleaved requests (every request of a server counts until it drains) and 1-s telemetry, on
     * {@code examples/zoo.json} (20,000 jobs, seeds 1&ndash;3) target 2 gives a mean JCT 0.5&ndash;1.5% under
     * {@code jsq}'s at load 0.9 and 0.1&ndash;0.2% under at 0.8, target 3 up to 0.5% over {@code jsq}'s at 0.9, and
     * target 1 up to 3% over; loads 0.1&ndash;0.7 are unchanged.
     */
    public static final int DEFAULT_TARGET_ONGOING_REQUESTS = 2;

    private final ServerLedger ledger;
    private final ServerLiveness liveness;
    private final int subtask;
    private final int parallelism;
    private final Map<String, Integer> index = new HashMap<>();
    /** Each server's id, by index (an array, not a list: one cache line less per decision at thousands of servers). */
    private String[] ids = new String[0];
    /** Per server: its latest report's event time (epoch ms), compute rate and warm models; null models: none yet. */
    private long[] reportedAt = new long[0];
    private double[] reportedOps = new double[0];
    private final List<List<String>> warmModels = new ArrayList<>();
    /** Whether each server's latest report makes it usable (up, compute rate above 0), and whether it went silent. */
    private boolean[] reportedUp = new boolean[0];
    private boolean[] silent = new boolean[0];
    /** Whether each server is drained by an operator (no new stages), and the drained ids, known or not yet. */
    private boolean[] drained = new boolean[0];
    private final Set<String> drainedIds = new HashSet<>();
    /** The current request's rules ({@link #restrict}), or null: any live server. */
    private ServerFilter filter;
    /** A warm pool per model (the ledger's pool id), and per part of a model no server holds whole ({@link #loadingPart}). */
    private final Map<String, Integer> pools = new HashMap<>();
    /** Each warm pool's name, by pool id ({@link #pool}). */
    private final List<String> poolNames = new ArrayList<>();
    /** Per server, the parts of models too large for it that this placer sent it ({@link #loadingPart}). */
    private final PartMarks partMarks = new PartMarks();
    /** How long a part's latest request there keeps it from being evicted by another part ({@link #otherParts}). */
    private double partsKeptSeconds = ColdStartCost.DEFAULT_RENT_HALF_LIFE_SECONDS;
    /** The view {@link #otherParts} returns. */
    private final OtherParts otherParts = new OtherParts();
    private final TakenParts taken = new TakenParts();
    /** Sum of the compute rates of the live servers. */
    private double liveOps;
    /** The newest event time among the reports (epoch ms). */
    private long newestReport = Long.MIN_VALUE;
    /** Event-time ticks per second of the ledger's clock: 1,000 (epoch ms, the controller's) unless given. */
    private final long ticksPerSecond;
    private final long maxAheadTicks;
    /** Each server's class and memory, when its reports give them. */
    private final ServerMemory memory = new ServerMemory();
    /** The rule once servers give a class or memory (see {@link Rule}). */
    private Rule rule = Rule.EXPECTED_FINISH;
    /** The rule's own state: the cold-start cost, each model's rent and bytes. */
    private final ExpectedFinishRule expectedFinish;

    /**
     * How parts are mapped once a server's reports give its class or memory. Without either, both are today's
     * warm-first rule exactly.
     */
    public enum Rule {
        /**
         * Per part, among the live servers it fits beside the request's other parts there, the one of least marginal
         * cost: the predicted finish $B_s(t) + T_{CS,s} + p/\nu_s$ plus the delay the part adds to the requests the
         * server holds ({@link dev.nona.queueing.MarginalCost}). The finish: its predicted backlog, then the
         * part's load when the server
         * does not hold the model, then the part's operations at the server's own (learned, else reported) rate. The
         * load queues behind the backlog because an executor loads a part when its first task starts (the
         * simulator's engine, which the executor twin runs); the thesis's Eq. (1) overlaps them,
         * $\max(B_s, T_{CS}) + T_I$, which under-predicts a busy cold server (measured: {@code hetero} at load 0.6,
         * mean JCT 0.440 s with the overlap against 0.286 s, 3,000 jobs, seed 1). A model's load is also bought where
         * a part would cost least once what its parts lost without it reaches the load (rent or buy, see
         * {@link ExpectedFinishRule}). $O(N)$ per part.
         */
        EXPECTED_FINISH,
        /** Today's warm-first rule with memory only as a filter ({@code nona-controller-uniform}). */
        WARM_FIRST
    }

    /**
     * No server yet; add them with {@link #report}.
     *
     * @param targetOngoingRequests a warm server with fewer ongoing requests is preferred, {@code >= 1}
     * @param subtask               this placer's index among those sharing the servers, in {@code [0, parallelism)}
     * @param parallelism           placers sharing the servers, {@code >= 1}
     * @param livenessTimeoutMillis a server unheard for longer is not used, {@code > 0}
     */
    public LiveServers(int targetOngoingRequests, int subtask, int parallelism, long livenessTimeoutMillis) {
        this(targetOngoingRequests, subtask, parallelism, livenessTimeoutMillis, 1_000);
    }

    /**
     * As {@link #LiveServers(int, int, int, long)}, with event times (every {@code eventTime} and
     * {@code eventTimeMillis} argument) in ticks of {@code 1 / eventTicksPerSecond} s instead of milliseconds: the
     * simulator passes nanoseconds of simulated time, so that rounding to its clock does not perturb the ledger
     * (with milliseconds a server predicted to drain could still hold up to half a millisecond of work). The
     * liveness clock stays in milliseconds.
     *
     * @param eventTicksPerSecond event-time ticks per second, {@code >= 1}
     */
    public LiveServers(int targetOngoingRequests, int subtask, int parallelism, long livenessTimeoutMillis,
            long eventTicksPerSecond) {
        if (eventTicksPerSecond < 1) {
            throw new IllegalArgumentException("event ticks per second (" + eventTicksPerSecond + ") must be >= 1");
        }
        this.ticksPerSecond = eventTicksPerSecond;
        this.maxAheadTicks = Math.multiplyExact(MAX_AHEAD_OF_TELEMETRY_MILLIS, eventTicksPerSecond) / 1_000;
        if (targetOngoingRequests < 1) {
            throw new IllegalArgumentException("placement.target-ongoing-requests (" + targetOngoingRequests + ") must be >= 1");
        }
        if (parallelism < 1 || subtask < 0 || subtask >= parallelism) {
            throw new IllegalArgumentException("subtask (" + subtask + ") must be in [0, parallelism (" + parallelism + "))");
        }
        this.ledger = new ServerLedger(targetOngoingRequests);
        this.ledger.readAheadAlso(this::readId);
        this.ledger.memoryOf(memory::memory);
        this.liveness = new ServerLiveness(livenessTimeoutMillis);
        this.expectedFinish = new ExpectedFinishRule(ledger, memory);
        this.subtask = subtask;
        this.parallelism = parallelism;
    }

    /**
     * The latest report of server {@code serverId}, heard at {@code nowMillis} (processing time): resets its ledger
     * entry, its warm models and whether it is usable, and makes it live again. A report older (by event time) than
     * the one held is ignored. $O(w \log N)$; allocates only for a new server or a changed list of warm models.
     *
     * @param up              whether the server says it takes work
     * @param opsPerSecond    its compute rate $\nu$, finite and {@code >= 0} (0: not usable)
     * @param ongoingRequests requests in flight on it, {@code >= 0}
     * @param backlogSeconds  seconds of work it holds, {@code >= 0}, or NaN when the report does not say
     * @param warmModels      the models it holds warm (compared with the previous list by {@code equals})
     * @param eventTimeMillis when the server took the report (epoch ms, the ledger's clock)
     * @param nowMillis       when it was heard (processing time, epoch ms, the liveness clock)
     * @return the server's index
     */
    public int report(String serverId, boolean up, double opsPerSecond, int ongoingRequests, double backlogSeconds,
            List<String> warmModels, long eventTimeMillis, long nowMillis) {
        return report(serverId, up, opsPerSecond, ongoingRequests, backlogSeconds, warmModels, null,
                ServerClass.UNBOUNDED, eventTimeMillis, nowMillis);
    }

    /**
     * As {@link #report(String, boolean, double, int, double, List, long, long)}, with the server's class and memory.
     * Its free memory is then the whole memory until {@link #freeMemoryBytes} says less.
     *
     * @param serverClass its class, or null when the report gives none
     * @param memoryBytes its memory for model parts, {@code > 0}, or {@link ServerClass#UNBOUNDED} when not given
     */
    public int report(String serverId, boolean up, double opsPerSecond, int ongoingRequests, double backlogSeconds,
            List<String> warmModels, String serverClass, double memoryBytes, long eventTimeMillis, long nowMillis) {
        Integer known = index.get(serverId);
        int s;
        if (known == null) {
            s = ledger.addServer(opsPerSecond);
            memory.addServer();
            index.put(serverId, s);
            this.warmModels.add(null);
            partMarks.addServer();
            if (s >= reportedUp.length) {
                int c = Math.max(4, 2 * s);
                ids = Arrays.copyOf(ids, c);
                reportedUp = Arrays.copyOf(reportedUp, c);
                silent = Arrays.copyOf(silent, c);
                drained = Arrays.copyOf(drained, c);
                reportedAt = Arrays.copyOf(reportedAt, c);
                reportedOps = Arrays.copyOf(reportedOps, c);
            }
            ids[s] = serverId;
            ledger.setUp(s, false);
            ledger.setOwned(s, Math.floorMod(serverId.hashCode(), parallelism) == subtask);
            drained[s] = drainedIds.contains(serverId);
        } else {
            s = known;
            if (reportedAt[s] > eventTimeMillis) {
                return s;
            }
        }
        List<String> before = this.warmModels.get(s);
        if (before == null || !before.equals(warmModels)) {
            this.warmModels.set(s, List.copyOf(warmModels));
            applyPools(s);
        }
        boolean wasLive = ledger.isUp(s);
        if (memory.set(s, serverClass, memoryBytes)) {
            ledger.memoryChanged(s);
        }
        ledger.setRate(s, opsPerSecond);
        ledger.report(s, ongoingRequests, backlogSeconds, seconds(eventTimeMillis));
        if (wasLive) {
            liveOps -= reportedOps[s];
        }
        reportedAt[s] = eventTimeMillis;
        reportedOps[s] = opsPerSecond;
        reportedUp[s] = up && opsPerSecond > 0;
        silent[s] = false;
        if (reportedUp[s]) {
            liveness.heard(s, nowMillis);
        } else {
            liveness.forget(s);
        }
        boolean live = reportedUp[s] && !drained[s];
        ledger.setUp(s, live);
        if (live) {
            liveOps += opsPerSecond;
        }
        if (live != wasLive) {
            memory.changed();
        }
        newestReport = Math.max(newestReport, eventTimeMillis);
        return s;
    }

    /**
     * Replaces a known server's compute speed, e.g. by the speed its outcomes showed, without counting as a report:
     * its liveness, its reported backlog and the requests placed on it since are unchanged, and so is whether it is
     * up. A server that reported no speed (0, so no stages) keeps it. Later reports set the speed they carry: a
     * caller that learned a speed passes it in place of the reported one ({@code report}'s {@code opsPerSecond}).
     *
     * @return false when the server is unknown or reported 0 ops/s (nothing changed)
     */
    public boolean recalibrate(String serverId, double opsPerSecond) {
        if (!(opsPerSecond > 0) || Double.isInfinite(opsPerSecond)) {
            throw new IllegalArgumentException("learned speed of " + serverId + " (" + opsPerSecond
                    + " ops/s) must be finite and > 0");
        }
        Integer known = index.get(serverId);
        if (known == null || reportedOps[known] == 0) {
            return false;
        }
        int s = known;
        ledger.setRate(s, opsPerSecond);
        if (ledger.isUp(s)) {
            liveOps += opsPerSecond - reportedOps[s];
        }
        reportedOps[s] = opsPerSecond;
        return true;
    }

    /**
     * Stops using the servers unheard for longer than the liveness timeout at {@code nowMillis} (processing time);
     * gives each newly silent server's index to {@code silenced}. $O(1)$ plus the servers silenced.
     */
    public void expireSilent(long nowMillis, IntConsumer silenced) {
        liveness.expire(nowMillis, s -> {
            silent[s] = true;
            if (ledger.isUp(s)) {
                liveOps -= reportedOps[s];
            }
            ledger.setUp(s, false);
            memory.changed();
            silenced.accept(s);
        });
    }

    /**
     * The servers an operator drained ({@code DRAIN_SERVER}): from now on they get no new stages, as if down, until
     * a later call leaves them out; ids not known yet are drained when they first report. $O((d + d') \log N)$ for
     * the drained servers before and after.
     */
    public void setDrained(Set<String> serverIds) {
        Set<String> before = new HashSet<>(drainedIds);
        drainedIds.clear();
        drainedIds.addAll(serverIds);
        before.addAll(serverIds);
        for (String id : before) {
            Integer known = index.get(id);
            if (known != null) {
                setDrained(known, drainedIds.contains(id));
            }
        }
    }

    private void setDrained(int s, boolean d) {
        if (drained[s] == d) {
            return;
        }
        drained[s] = d;
        boolean live = reportedUp[s] && !silent[s] && !d;
        if (ledger.isUp(s) != live) {
            liveOps += live ? reportedOps[s] : -reportedOps[s];
            ledger.setUp(s, live);
            memory.changed();
        }
    }

    /** Whether server {@code index} is drained by an operator. */
    public boolean isDrained(int index) {
        return drained[index];
    }

    /** Whether server {@code index} went silent (not heard within the liveness timeout) and has not reported since. */
    public boolean isSilent(int index) {
        return silent[index];
    }

    /**
     * The rules of the request about to be placed: until the next call, {@link #pick} and {@link #pickOther} use
     * only the live servers {@code filter} allows ({@code null}: every live server). The caller checks that an
     * allowed server is live before placing ({@link ServerRules#admit} does).
     */
    public void restrict(ServerFilter filter) {
        this.filter = filter;
    }

    /** As {@link #expireSilent(long, IntConsumer)}, ignoring which. */
    public void expireSilent(long nowMillis) {
        expireSilent(nowMillis, s -> { });
    }

    /** Event time (epoch ms, or the ticks given at construction) as the ledger's clock, seconds. */
    private double seconds(long eventTime) {
        return (double) eventTime / ticksPerSecond;
    }

    /**
     * A request's time on the ledger's clock: its event time, but at most {@link #MAX_AHEAD_OF_TELEMETRY_MILLIS}
     * after the newest report, so that a client whose clock runs ahead cannot push a server's predicted backlog
     * into the future (it would stop draining until the real time caught up).
     */
    private double requestSeconds(long eventTime) {
        return seconds(newestReport == Long.MIN_VALUE ? eventTime : Math.min(eventTime, newestReport + maxAheadTicks));
    }

    /** Live servers. */
    public int upCount() {
        return ledger.upCount();
    }

    /** Servers known, live or not: their indices are {@code 0..known()-1}. */
    public int known() {
        return ledger.servers();
    }

    /** Mean compute rate $\nu$ of the live servers, or 0 when none is. */
    public double meanOpsPerSecond() {
        return ledger.upCount() == 0 ? 0 : liveOps / ledger.upCount();
    }

    /** Whether server {@code index} is live (reported up, compute rate above 0, not silent, not drained). */
    public boolean isLive(int index) {
        return ledger.isUp(index);
    }

    /** The index of server {@code id}, or -1 if it never reported. */
    public int indexOf(String id) {
        return index.getOrDefault(id, -1);
    }

    /** The id of server {@code index}. */
    public String id(int index) {
        Objects.checkIndex(index, ledger.servers());
        return ids[index];
    }

    /** When server {@code index} was last heard (processing time, epoch ms). */
    public long heardAt(int index) {
        return liveness.heardAt(index);
    }

    /** The warm pool of {@code model}, for {@link #pickOther}: the ledger's pool id, or {@link ServerLedger#NO_SERVER}. */
    public int warm(String model) {
        return pools.getOrDefault(model, ServerLedger.NO_SERVER);
    }

    /** Requests in flight on server {@code index} at {@code eventTime} (epoch ms) as this placer predicts them. */
    public int ongoing(int index, long eventTime) {
        return ledger.ongoing(index, requestSeconds(eventTime));
    }

    /** Seconds of work on server {@code index} at {@code eventTime} (epoch ms) as this placer predicts them. */
    public double backlogSeconds(int index, long eventTime) {
        return ledger.backlog(index, requestSeconds(eventTime));
    }

    /**
     * Server {@code index} holds {@code model} from now on: this placer sent it a request of the whole model that it
     * did not hold, so it is loading it. Its next report replaces the list (and says what the load evicted); until
     * then the picks see the server warm, as they will after that report, instead of sending the next requests to other
     * cold servers for up to a telemetry period. Nothing when the list already names the model.
     */
    public void loading(int index, String model) {
        List<String> held = warmModels.get(index);
        if (held != null && held.contains(model)) {
            return;
        }
        List<String> now = new ArrayList<>(held == null ? List.of() : held);
        now.add(model);
        warmModels.set(index, List.copyOf(now));
        applyPools(index);
    }

    /** The warm pool named {@code name}: a model's ({@link #warm}), or a part's ({@link #loadingPart}), created if new. */
    public int pool(String name) {
        Integer known = pools.get(name);
        if (known != null) {
            return known;
        }
        pools.put(name, poolNames.size());
        poolNames.add(name);
        return poolNames.size() - 1;
    }

    /**
     * Server {@code index} holds part pool {@code pool} ({@link #pool}) of {@code model}, of {@code bytes}, and took a
     * request of it at {@code eventTime} (epoch ms): this placer sent it that part of a model no server holds whole,
     * which no report can name (reports give the models a server holds and their bytes, not which parts). The server
     * stays warm for the part across its reports while they show it holding at least the bytes of the parts of the
     * model this placer knows there ({@link #heldBytes}); a load that does not fit beside the model's older parts there
     * evicts them, oldest first. A part already known there is only marked used. {@code startsIn}: the server's
     * predicted backlog before this request (seconds), after which the request runs there and pins the part
     * ({@link PinnedParts}).
     */
    public void loadingPart(int index, int pool, String model, double bytes, long eventTime, double startsIn) {
        double now = requestSeconds(eventTime);
        // the server's backlog behind the present, which is the newest report's time when the request is older
        // (one held until a table came is placed well after it was made): when this request is predicted done
        double present = newestReport == Long.MIN_VALUE ? now : Math.max(now, seconds(newestReport));
        double done = present + ledger.backlog(index, now);
        double starts = present + startsIn;
        if (partMarks.mark(index, pool, model, bytes, now, done, starts, memory)) {
            applyPools(index);
        }
    }

    /**
     * The parts of models too large for their servers that this placer knows on each server ({@link #loadingPart}), for
     * a checkpoint: no report names them, so a placer that starts again without them sees every such part cold and
     * loads it again elsewhere. $O(\text{parts})$.
     */
    public List<KnownPart> knownParts() {
        return partMarks.known(ids, poolNames);
    }

    /**
     * Knows {@code parts} again, as {@link #knownParts} gave them (from one placer or several: a part known twice on a
     * server keeps its latest use), on the servers known now; a part of a server not known is dropped. The parts are
     * kept only as far as the servers' reports show them held: call {@link #heldBytes} with each such server's latest
     * report after this. $O(\text{parts} \log \text{parts})$.
     */
    public void restoreParts(Collection<KnownPart> parts) {
        List<KnownPart> oldestFirst = new ArrayList<>(parts);
        oldestFirst.sort(Comparator.comparingDouble(KnownPart::usedSeconds));
        BitSet touched = new BitSet();
        for (KnownPart p : oldestFirst) {
            Integer s = index.get(p.serverId());
            if (s == null) {
                continue;
            }
            partMarks.restore(s, pool(p.pool()), p);
            touched.set(s);
        }
        touched.stream().forEach(this::applyPools);
    }

    /**
     * Each warm pool's rent of rent or buy that is above 0 ({@link Rule#EXPECTED_FINISH}: what not loading its model
     * where its parts would have finished first has cost them), for a checkpoint: a placer that starts again without
     * it buys a load up to one load's price later. $O(\text{pools})$.
     */
    public List<PoolRent> rents() {
        List<PoolRent> out = new ArrayList<>();
        for (int p = 0; p < poolNames.size(); p++) {
            double[] r = expectedFinish.rentAsCounted(p);
            if (r != null) {
                out.add(new PoolRent(poolNames.get(p), r[0], r[1]));
            }
        }
        return out;
    }

    /**
     * Takes {@code rents} back, as {@link #rents} gave them; a pool's rents from several placers (a lower parallelism)
     * add up, each decayed to the latest of their times. Call it after {@link #coldStart}, whose half-life decays them.
     */
    public void restoreRents(Collection<PoolRent> rents) {
        for (PoolRent r : rents) {
            expectedFinish.restoreRent(pool(r.pool()), r.rent(), r.atSeconds());
        }
    }

    /**
     * A warm pool's rent of rent or buy ({@link #rents}).
     *
     * @param pool      the warm pool by name ({@link #pool}: a model's, or a part's)
     * @param rent      seconds of loss, as counted at {@code atSeconds} ({@code >= 0})
     * @param atSeconds when it was counted, seconds on the ledger's clock
     */
    public record PoolRent(String pool, double rent, double atSeconds) {
        public PoolRent {
            Objects.requireNonNull(pool, "pool");
            if (!(rent >= 0 && Double.isFinite(rent)) || !Double.isFinite(atSeconds)) {
                throw new IllegalArgumentException("rent of pool '" + pool + "' (" + rent + " s at " + atSeconds
                        + " s) must be finite and >= 0");
            }
        }
    }

    /**
     * A part of a model too large for its server that a placer sent there ({@link #knownParts}).
     *
     * @param serverId    the server
     * @param pool        the part's warm pool by name ({@link #pool})
     * @param model       the model it is a part of
     * @param bytes       its bytes
     * @param usedSeconds when it last took a request there, seconds on the ledger's clock
     * @param dueSeconds  when the server's reports are due to show it ({@link #heldBytes}), seconds on that clock
     */
    public record KnownPart(String serverId, String pool, String model, double bytes, double usedSeconds,
            double dueSeconds) {
        public KnownPart {
            Objects.requireNonNull(serverId, "serverId");
            Objects.requireNonNull(pool, "pool");
            Objects.requireNonNull(model, "model");
        }
    }

    /**
     * The bytes, on each server it is asked for, of the parts of {@code model} other than pool {@code except}'s that
     * this placer knows there ({@link #loadingPart}) and sent a request there within the cold-start cost's half-life
     * $H$ before {@code eventTime}: where a part would have to evict such a part to fit, the next request of the model
     * would load that one again. A part that took none of the model's requests for $H$ does not keep another part
     * off its server; without that, the servers that first took each part would keep it for good however the
     * requests' work divides between the parts. One view per placer, reset by each call; $O(1)$, and each server
     * asked costs its own parts.
     */
    Footprint.Beside otherParts(String model, int except, long eventTime) {
        otherParts.model = model;
        otherParts.except = except;
        otherParts.since = requestSeconds(eventTime) - partsKeptSeconds;
        return otherParts;
    }

    /** {@link #otherParts}' view: the recent parts of a model but one on a server. */
    private final class OtherParts implements Footprint.Beside {
        private String model;
        private int except;
        private double since;

        @Override
        public double on(int s) {
            return partMarks.otherBytes(s, model, except, since);
        }
    }

    /** Whether this placer knows parts of a model on server {@code index} ({@link #loadingPart}). */
    public boolean holdsParts(int index) {
        return partMarks.any(index);
    }

    /**
     * What server {@code index}'s latest report says it holds of each model ({@code heldBytes}: a model's bytes there,
     * 0 when none): the parts this placer knows there ({@link #loadingPart}) are kept while they add up to no more,
     * the oldest of a model forgotten first. A part the report was made too early to show is kept and not counted:
     * one sent there and not predicted done by the report's time (its due time: when it was sent, or the newest
     * report's time if later, plus the server's predicted backlog then, its load included), for an executor loads a
     * part when its first task starts, and the decision takes time to reach it. Without that, a report made while the
     * part waited dropped it, and the next request loaded it on another server. Call after {@link #report} when
     * {@link #holdsParts}.
     */
    public void heldBytes(int index, ToDoubleFunction<String> heldBytes) {
        if (partMarks.any(index) && partMarks.keepHeld(index, seconds(reportedAt[index]), heldBytes)) {
            applyPools(index);
        }
    }

    /** Server {@code s}'s warm pools in the ledger: its reported models', then its parts' ({@link #loadingPart}). */
    private void applyPools(int s) {
        List<String> held = warmModels.get(s);
        int models = held == null ? 0 : held.size();
        int[] warm = new int[models + partMarks.count(s)];
        for (int i = 0; i < models; i++) {
            warm[i] = pool(held.get(i));
        }
        for (int i = models; i < warm.length; i++) {
            warm[i] = partMarks.pool(s, i - models);
        }
        ledger.setPools(s, warm);
    }

    private static final IntPredicate NOT_PINNED = s -> false;

    /**
     * The servers where a part of pool {@link #pool} is pinned at {@link #now}: this placer sent it a request of the
     * part ({@link #loadingPart}) that it predicts still running, and the server is predicted busy (a report of it
     * idle since ends that), so a stage of it holds the part's bytes there; and the server's free memory, when told
     * as of a time after the request was predicted to start there, leaves room for the part's bytes to be pinned (free
     * memory and part together fit the memory; else the request finished early and the part may have been evicted
     * since). Only the parts of a model no server holds whole are known this way; for any other pool, none.
     */
    private final class PinnedParts implements IntPredicate {
        private int pool;
        private double now;

        IntPredicate of(int warmPool, long eventTime) {
            if (warmPool < 0) {
                return NOT_PINNED;
            }
            pool = warmPool;
            now = requestSeconds(eventTime);
            return this;
        }

        @Override
        public boolean test(int s) {
            PartMarks.Mark m = partMarks.find(s, pool);
            return m != null && m.runsUntil > now && ledger.ongoing(s, now) > 0
                    && (!memory.freeKnows(s, m.pinsFrom) || memory.couldPin(s, m.bytes));
        }
    }

    private final PinnedParts pinned = new PinnedParts();

    /**
     * Whether server {@code index} holds warm pool {@code warm} by its latest report, or every server is warm
     * ({@link ServerLedger#EVERY_SERVER}): where {@link Rule#EXPECTED_FINISH} predicts no cold start.
     */
    public boolean isWarmFor(int index, int warm) {
        return warm == ServerLedger.EVERY_SERVER || ledger.inPool(index, warm);
    }

    /** Whether server {@code index} holds warm pool {@code warm} ({@link #warm}) by its latest report. */
    public boolean isWarm(int index, int warm) {
        return ledger.inPool(index, warm);
    }

    /** Server {@code index}'s compute rate $\nu$ by its latest report, ops/s. */
    public double opsPerSecond(int index) {
        return ledger.rate(index);
    }

    /** The target of ongoing requests ({@code placement.target-ongoing-requests}). */
    public int targetOngoingRequests() {
        return ledger.target();
    }

    /** One server for a request of {@code model} at {@code eventTime} (see the class comment). */
    public int pick(String model, long eventTime, RandomGenerator rng) {
        return pickOther(warm(model), NONE, 0, eventTime, rng);
    }

    /**
     * A server for a part of a request at {@code eventTime}, not in {@code taken[0..n)} while enough servers are up:
     * a server of pool {@code warm} ({@link #warm}) under the target with the least predicted backlog, else the up
     * one with the least predicted backlog, else (every up server taken) any up server; only servers the current
     * {@link #restrict filter} allows. Does not record the request: see {@link #record}.
     *
     * @throws IllegalStateException when no server is up, or none the filter allows
     */
    public int pickOther(int warm, int[] taken, int n, long eventTime, RandomGenerator rng) {
        if (ledger.upCount() == 0) {
            throw new IllegalStateException("no server is up");
        }
        this.taken.parts = taken;
        this.taken.count = n;
        this.taken.filter = filter;
        int s = ledger.pick(warm, this.taken, requestSeconds(eventTime), rng);
        if (s < 0) {
            throw new IllegalStateException("no server the operator's rules allow is up");
        }
        return s;
    }

    /**
     * Records a request placed at {@code eventTime}: task {@code t < tasks} on server {@code servers[t]}, needing
     * {@code ops[t]} operations (one request on each server it uses, with the work of its tasks there).
     */
    public void record(int[] servers, double[] ops, int tasks, long eventTime) {
        ledger.assignRequest(servers, ops, tasks, requestSeconds(eventTime));
    }

    /**
     * As {@link #record(int[], double[], int, long)}, where {@code loadSeconds[t]} (null: none) seconds of task
     * {@code t}'s operations are a predicted cold start on its server: kept in its backlog across the server's reports
     * (which count compute, not loads) until the part is predicted done.
     */
    public void record(int[] servers, double[] ops, double[] loadSeconds, int tasks, long eventTime) {
        ledger.assignRequest(servers, ops, loadSeconds, tasks, requestSeconds(eventTime));
    }

    /**
     * What loading a part is predicted to cost on a server that does not hold its model ({@code null}: not modelled,
     * 0 s). Used only once a server gives its class or memory.
     */
    public void coldStart(ColdStartCost cost) {
        expectedFinish.coldStart(cost);
        partsKeptSeconds = cost == null ? ColdStartCost.DEFAULT_RENT_HALF_LIFE_SECONDS : cost.rentHalfLifeSeconds();
    }

    /**
     * The idle gate $\kappa$ of {@link Rule#EXPECTED_FINISH} from now on: the table's {@link PlacementTable#idleGate}
     * (0: none; else finite and {@code >= 1}).
     */
    public void idleGate(double kappa) {
        expectedFinish.idleGate(kappa);
    }

    /** The predicted seconds to load a part of {@code bytes} on a server that does not hold it (0 when not modelled). */
    public double coldStartSeconds(double bytes) {
        return expectedFinish.coldStartSeconds(bytes);
    }

    /** The rule once servers give a class or memory ({@link Rule#EXPECTED_FINISH} unless set). */
    public void rule(Rule r) {
        this.rule = Objects.requireNonNull(r, "rule");
    }

    /**
     * Whether any server's latest report gives its class or memory: then parts are mapped by {@link #pickPart} with
     * their bytes, else exactly as {@link #pickOther} maps them.
     */
    public boolean describesMemory() {
        return memory.described();
    }

    /** Server {@code index}'s memory for model parts, bytes ({@link ServerClass#UNBOUNDED} when not given). */
    public double memoryBytes(int index) {
        return memory.memory(index);
    }

    /** Server {@code index}'s class by its latest report, or null when it gives none. */
    public String serverClass(int index) {
        return memory.serverClass(index);
    }

    /**
     * Server {@code index}'s memory that a new part may use now, until its next report (which resets it to the whole
     * memory): its memory less what its ready and running parts pin. The simulator knows it exactly; the controller
     * takes it from the report's {@code freeMemoryBytes} when the server gives one, else it is the whole memory. A
     * part goes where it fits now when it can, else where it fits the memory (it then waits there for running parts
     * to finish). Values above the memory count as the memory. {@code eventTime}: as of when (the report's event time;
     * the simulator's present), which tells whether it already shows a request sent there running
     * ({@link PinnedParts}).
     */
    public void freeMemoryBytes(int index, double bytes, long eventTime) {
        memory.free(index, bytes, seconds(eventTime));
    }

    /** The largest memory among the live servers, bytes (0 when none is live). */
    public double largestLiveMemoryBytes() {
        return memory.largestLive(ledger::isUp);
    }

    /**
     * A server for a part of {@code ops} operations and {@code bytes} bytes of a request that already has
     * {@code footprint} on the servers it uses, at {@code eventTime}: only a live server the {@link #restrict filter}
     * allows where the part fits beside the request's other parts there; not one of {@code taken[0..n)} while such a
     * server is free. By {@link Rule#EXPECTED_FINISH} or, under {@link Rule#WARM_FIRST}, {@link #pickOther}'s rule
     * among the servers it fits. Does not record the request or the footprint.
     *
     * @return the server, or -1 when the part fits no live server
     */
    public int pickPart(int warm, int[] taken, int n, double ops, double bytes, Footprint footprint, long eventTime,
            RandomGenerator rng) {
        if (ledger.upCount() == 0) {
            throw new IllegalStateException("no server is up");
        }
        int s = pickPart(warm, taken, n, ops, bytes, footprint, eventTime, rng, true);
        return s >= 0 ? s : pickPart(warm, taken, n, ops, bytes, footprint, eventTime, rng, false);
    }

    private int pickPart(int warm, int[] taken, int n, double ops, double bytes, Footprint footprint, long eventTime,
            RandomGenerator rng, boolean now) {
        if (rule == Rule.WARM_FIRST) {
            this.taken.parts = taken;
            this.taken.count = n;
            this.taken.filter = filter;
            this.taken.fitting(bytes, footprint, now, pinned.of(warm, eventTime));
            try {
                return ledger.pick(warm, this.taken, requestSeconds(eventTime), rng);
            } finally {
                this.taken.fitting(Double.NaN, null, false, NOT_PINNED);
            }
        }
        return expectedFinish.pick(warm, taken, n, ops, bytes, footprint, filter, requestSeconds(eventTime), rng, now,
                pinned.of(warm, eventTime));
    }

    /** Server {@code s}'s predicted finish for a part, as {@link Rule#EXPECTED_FINISH} weighs it (the explanation). */
    public double expectedFinishSeconds(int s, int warm, double ops, double bytes, long eventTime) {
        return expectedFinish.expectedFinishSeconds(s, warm, ops, bytes, requestSeconds(eventTime));
    }

    /** The bytes of warm pool {@code pool}'s model, whole ({@code pool < 0}: nothing), for the rent-or-buy rule. */
    void modelBytes(int pool, double bytes) {
        expectedFinish.modelBytes(pool, bytes);
    }

    /** Reads server {@code s}'s id as a decision will (the ledger's read-ahead: see {@link ServerLedger}). */
    private double readId(int s) {
        String id = ids[s];
        return id.length() + id.hashCode();
    }

    /** The parts a request already uses, as the ledger asks. */
    private final class TakenParts implements ServerLedger.Taken {
        int[] parts = LiveServers.NONE;
        int count;
        ServerFilter filter;
        /** The bytes of the part being placed ({@link Rule#WARM_FIRST} with memory), NaN: no memory filter. */
        private double bytes = Double.NaN;
        private Footprint footprint;
        private boolean now;
        private IntPredicate pinned = NOT_PINNED;

        void fitting(double partBytes, Footprint requestFootprint, boolean fitNow, IntPredicate pinnedThere) {
            this.pinned = pinnedThere;
            this.bytes = partBytes;
            this.footprint = requestFootprint;
            this.now = fitNow;
        }

        @Override
        public boolean excludes() {
            return filter != null || footprint != null;
        }

        @Override
        public boolean excluded(int server) {
            return (filter != null && !filter.allows(server))
                    || (footprint != null && !memory.fits(server, bytes, footprint, now, pinned));
        }

        @Override
        public boolean taken(int server) {
            if (excluded(server)) {
                return true;
            }
            for (int i = 0; i < count; i++) {
                if (parts[i] == server) {
                    return true;
                }
            }
            return false;
        }
    }
}
