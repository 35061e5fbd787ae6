package dev.nona.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * What a placer knows of each server's load between two reports, and the rule that uses it. A server reports the
 * requests it has in flight and the seconds of work it holds (queued, running, and stages waiting for their
 * inputs) at a time $t_r$; between reports the ledger predicts, as the thesis's {@code MASched} counts a request the
 * moment it routes it: the backlog drains at one second of work per second, and every request this placer sends
 * there adds its work $\sum_t p^t/\nu$ (the tasks it runs there), so the server is predicted to drain at
 * $t + B(t) + w$. A server serves its ready tasks in turn, so the requests it holds interleave (about processor
 * sharing, not first-come-first-served): the ongoing requests of a server at $t$ are those of its report and this
 * placer's own requests since, all counted until the server is predicted to drain. (Predicting them to finish one
 * after the other, FCFS, undercounted busy servers: at load 0.9 on {@code examples/zoo.json} with 1-s telemetry the
 * simulated controller's mean JCT was 1.3&ndash;2.1% higher than with this rule at a target of 3, and
 * 1.7&ndash;2.8% at a target of 2, seeds 1&ndash;3.)
 *
 * <p>A report forgets this placer's requests sent at or before $t_r$ (the report counts them) and re-queues the later
 * ones behind the reported work. When a report does not say its work (an older agent), the backlog is estimated as
 * its requests times the mean work of this placer's requests, and its requests count until the next report.
 *
 * <p>The rule ({@link #pick}): a server of the request's warm pool, up, not yet taken by the request, with fewer
 * ongoing requests than the target, the one with the least predicted backlog; when there is none, the up server
 * not taken with the least predicted backlog; when every up server is taken, any up server uniformly. A request
 * may exclude servers ({@link Taken#excluded}, the operator's rules): they are skipped like taken ones and never
 * picked, and the skips count in the cost below. Placers that
 * run in parallel each see only their own requests between two reports; each then owns a share of the servers
 * ({@link #setOwned}) and prefers it. This is join-the-shortest-queue on queued work (Harchol-Balter, "Performance
 * Modeling and Design of Computer Systems", Cambridge University Press, 2013, Ch. 24) with the thesis's warm-first
 * colocation and its target of ongoing requests. The simulator's {@code nona-controller} policy and the
 * controller's placement operator both use this class.
 *
 * <p><b>Cost independent of the cluster's size.</b> Backlogs drain at the same rate everywhere, so the order of two
 * servers by predicted backlog at any time $t$ is their order by predicted idle time $T_s = t_s + B_s$ (the time
 * of their last update plus the backlog then), which changes only when the server is reported or used. Each pool
 * (a model's warm servers, and every server) is kept in tournament trees keyed by $T_s$ ({@link MinTree}), one for
 * the servers this placer owns and one for the others, so the least backlog is the root and a report or a request
 * re-ranks a server in $O(w \log N)$ ($w$: the pools it is in). A server found at the target is parked in a tree
 * keyed by the time its count is predicted to fall under the target, and returns to its pools at that time or at
 * its next report. A pick is then $O((1 + k) \log N)$, where $k$ counts the servers it skips (those the request
 * already took, and servers parked now, each once per change of its count): it never scans the servers, and does
 * not allocate. The order differs from a scan by predicted backlog only for a time earlier than a server's last
 * update (out-of-order times), and among idle servers, where the longest idle comes first (a scan took the first
 * met from a random start).
 *
 * <p>A server's ring tracks at most $\max(64, 4 \cdot target)$ of this placer's requests (the oldest are dropped
 * from the count, not from the backlog), so memory stays bounded when reports stop while requests keep coming.
 *
 * <p>Times are seconds on the placer's clock (event time in the controller, simulated time in the simulator); a
 * time earlier than the last one seen for a server drains nothing. Not thread-safe.
 */
public final class ServerLedger {
    /** Tells which servers a request already uses. */
    @FunctionalInterface
    public interface Taken {
        Taken NONE = s -> false;

        /** Whether the request already uses {@code server}, or may not use it ({@link #excluded}). */
        boolean taken(int server);

        /**
         * Whether the request may not use {@code server} at all (an operator's rule): unlike a taken server, it is
         * not picked even when every up server is taken. Only asked when {@link #excludes()}.
         */
        default boolean excluded(int server) {
            return false;
        }

        /** Whether any server may be {@link #excluded}; false keeps the uniform fallback $O(1)$. */
        default boolean excludes() {
            return false;
        }
    }

    /** The pool of {@link #pick} when every server holds the model warm (the simulator). */
    public static final int EVERY_SERVER = -1;
    /** The pool of {@link #pick} when no server holds the model warm. */
    public static final int NO_SERVER = -2;

    private static final int MINE = 0;
    private static final int OTHERS = 1;

    private int n;
    private final int target;
    /**
     * The most requests a server's ring tracks: enough to tell a server at the target from one under it, and a
     * bound on memory when reports stop coming (or time stops advancing) while requests keep arriving.
     */
    private final int maxTracked;
    /** Each server's compute rate $\nu$, ops/s, to turn a task's $p^t$ into seconds of work. */
    private double[] opsPerSecond = new double[0];
    /** Predicted seconds of work at each server as of {@link #asOf}. */
    private double[] backlog = new double[0];
    private double[] asOf = new double[0];
    private int[] reported = new int[0];
    /** When the reported work drains: report time plus reported work; infinite when unknown (count to the next report). */
    private double[] reportedUntil = new double[0];
    /** Per server, a FIFO of this placer's own requests since the report (until it drains): send time, work. */
    private Requests[] own = new Requests[0];
    private boolean[] up = new boolean[0];
    private boolean[] owned = new boolean[0];
    private boolean[] parked = new boolean[0];
    /** For a parked server: when its count is predicted to fall under the target. */
    private double[] underFrom = new double[0];
    /** The warm pools of each server (ids given by the caller), null: none. */
    private int[][] pools = new int[0][];
    /**
     * Each server's pool when it is in exactly one, else {@link #NO_POOL} (none) or {@link #POOLS} (several): answers
     * {@link #inPool} from one int per server, where {@code pools} costs two dependent loads (cache misses at
     * thousands of servers).
     */
    private int[] onlyPool = new int[0];
    private static final int NO_POOL = -1;
    private static final int POOLS = -2;
    /** The up servers, for a uniform pick when every one is taken; {@link #upPosition} indexes it. */
    private int[] upList = new int[0];
    private int[] upPosition = new int[0];
    private int upCount;
    /** By owner ({@link #MINE}, {@link #OTHERS}): every up server, by predicted idle time. */
    private final MinTree[] any = {deferredTree(), deferredTree()};
    /** By pool + 1 (0: every server), then owner: the pool's up servers not parked, by predicted idle time. */
    private final List<MinTree[]> under = new ArrayList<>();
    /** Whether pool 0 (every server) is kept: from the first pick of {@link #EVERY_SERVER} on (the simulator's). */
    private boolean everyPool;
    private final MinTree parkedTree = new MinTree(s -> underFrom[s]);
    private double ownWorkSum;
    private long ownCount;
    /** Scratch for {@link #assignRequest}: the request's distinct servers and its work on each. */
    private int[] requestServers = new int[8];
    private double[] requestWork = new double[8];
    /** Scratch for {@link #pick}: servers taken out of a tree for the current search. */
    private int[] skipped = new int[8];

    /** Servers {@code 0..servers-1}, all of compute rate 1 op/s (work is then given in seconds). */
    public ServerLedger(int servers, int targetOngoingRequests) {
        this(ones(servers), targetOngoingRequests);
    }

    /**
     * @param opsPerSecond          each server's compute rate $\nu$ (servers {@code 0..length-1}, at least one),
     *                              finite and {@code >= 0}; a server of rate 0 gets no work from a task
     * @param targetOngoingRequests a warm server with fewer ongoing requests is preferred, {@code >= 1}
     */
    public ServerLedger(double[] opsPerSecond, int targetOngoingRequests) {
        this(targetOngoingRequests);
        if (opsPerSecond.length < 1) {
            throw new IllegalArgumentException("servers (" + opsPerSecond.length + ") must be >= 1");
        }
        for (int s = 0; s < opsPerSecond.length; s++) {
            requireRate(s, opsPerSecond[s]);
        }
        for (double rate : opsPerSecond) {
            addServer(rate);
        }
    }

    /** No server yet: add them with {@link #addServer}. */
    public ServerLedger(int targetOngoingRequests) {
        if (targetOngoingRequests < 1) {
            throw new IllegalArgumentException("target ongoing requests (" + targetOngoingRequests + ") must be >= 1");
        }
        this.target = targetOngoingRequests;
        this.maxTracked = Math.max(64, 4 * targetOngoingRequests);
        under.add(new MinTree[] {tree(), tree()});
    }

    private MinTree tree() {
        return new MinTree(s -> asOf[s] + backlog[s]);
    }

    /**
     * A tree re-ranked when read ({@link MinTree#update} defers): {@link #any} is read only when no warm server is
     * under the target.
     */
    private MinTree deferredTree() {
        return new MinTree(s -> asOf[s] + backlog[s], true);
    }

    private static void requireRate(int s, double rate) {
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("compute rate of server " + s + " (" + rate + " ops/s) must be finite and >= 0");
        }
    }

    private static double[] ones(int servers) {
        if (servers < 1) {
            throw new IllegalArgumentException("servers (" + servers + ") must be >= 1");
        }
        double[] r = new double[servers];
        Arrays.fill(r, 1);
        return r;
    }

    /** Servers known, up or not: indices {@code 0..servers()-1}. */
    public int servers() {
        return n;
    }

    /** Servers up. */
    public int upCount() {
        return upCount;
    }

    /**
     * Adds a server, up, owned by this placer, idle and in no warm pool, of compute rate {@code opsPerSecond}
     * (finite, {@code >= 0}); returns its index, {@link #servers()} before the call. $O(\log N)$ amortised.
     */
    public int addServer(double opsPerSecond) {
        int s = n;
        requireRate(s, opsPerSecond);
        if (s == this.opsPerSecond.length) {
            int c = Math.max(4, 2 * s);
            this.opsPerSecond = Arrays.copyOf(this.opsPerSecond, c);
            backlog = Arrays.copyOf(backlog, c);
            asOf = Arrays.copyOf(asOf, c);
            reported = Arrays.copyOf(reported, c);
            reportedUntil = Arrays.copyOf(reportedUntil, c);
            own = Arrays.copyOf(own, c);
            up = Arrays.copyOf(up, c);
            owned = Arrays.copyOf(owned, c);
            parked = Arrays.copyOf(parked, c);
            underFrom = Arrays.copyOf(underFrom, c);
            pools = Arrays.copyOf(pools, c);
            onlyPool = Arrays.copyOf(onlyPool, c);
            upList = Arrays.copyOf(upList, c);
            upPosition = Arrays.copyOf(upPosition, c);
        }
        n++;
        this.opsPerSecond[s] = opsPerSecond;
        own[s] = new Requests();
        onlyPool[s] = NO_POOL;
        owned[s] = true;
        upPosition[s] = -1;
        any[MINE].add(s, false);
        if (everyPool) {
            under.get(0)[MINE].add(s, false);
        }
        parkedTree.add(s, false);
        setUp(s, true);
        return s;
    }

    /** Server {@code s}'s compute rate $\nu$ from now on (finite, {@code >= 0}). */
    public void setRate(int s, double opsPerSecond) {
        requireRate(s, opsPerSecond);
        this.opsPerSecond[s] = opsPerSecond;
    }

    /** Whether server {@code s} may be picked; a down server keeps its entry. $O(w \log N)$. */
    public void setUp(int s, boolean isUp) {
        if (up[s] == isUp) {
            return;
        }
        up[s] = isUp;
        if (isUp) {
            upPosition[s] = upCount;
            upList[upCount++] = s;
        } else {
            int last = upList[--upCount];
            upList[upPosition[s]] = last;
            upPosition[last] = upPosition[s];
            upPosition[s] = -1;
        }
        present(s);
    }

    public boolean isUp(int s) {
        return up[s];
    }

    /** Whether server {@code s} is in warm pool {@code pool} ({@link #setPools}; false for a negative pool). $O(w)$. */
    public boolean inPool(int s, int pool) {
        int only = onlyPool[s];
        if (only != POOLS) {
            return pool >= 0 && only == pool;
        }
        int[] p = pools[s];
        if (p != null && pool >= 0) {
            for (int x : p) {
                if (x == pool) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Server {@code s}'s compute rate $\nu$, ops/s. */
    public double rate(int s) {
        return opsPerSecond[s];
    }

    /** The target of ongoing requests: a warm server with fewer is preferred. */
    public int target() {
        return target;
    }

    /**
     * The warm pools of server {@code s} (ids {@code >= 0} chosen by the caller, e.g. one per model; copied):
     * {@link #pick} of a pool prefers its servers. $O(w \log N)$.
     */
    public void setPools(int s, int[] warmPools) {
        int o = owner(s);
        if (pools[s] != null) {
            for (int p : pools[s]) {
                under.get(p + 1)[o].remove(s);
            }
        }
        pools[s] = warmPools.length == 0 ? null : warmPools.clone();
        onlyPool[s] = warmPools.length == 0 ? NO_POOL : warmPools.length == 1 ? warmPools[0] : POOLS;
        for (int p : warmPools) {
            if (p < 0) {
                throw new IllegalArgumentException("warm pool (" + p + ") of server " + s + " must be >= 0");
            }
            while (under.size() <= p + 1) {
                under.add(new MinTree[] {tree(), tree()});
            }
            under.get(p + 1)[o].add(s, up[s] && !parked[s]);
        }
    }

    /**
     * Makes this ledger's placer one of {@code shards} that share the servers: it owns the servers whose index is
     * {@code shard} modulo {@code shards} and prefers them (see {@link #pick}). With one shard it owns every server.
     */
    public void own(int shard, int shards) {
        if (shards < 1 || shard < 0 || shard >= shards) {
            throw new IllegalArgumentException("shard (" + shard + ") must be in [0, shards (" + shards + "))");
        }
        for (int s = 0; s < n; s++) {
            setOwned(s, s % shards == shard);
        }
    }

    /** Whether this placer owns server {@code s} and prefers it (see {@link #pick}); new servers are owned. */
    public void setOwned(int s, boolean mine) {
        if (owned[s] == mine) {
            return;
        }
        int before = owner(s);
        owned[s] = mine;
        for (MinTree[] pool : memberships(s)) {
            pool[before].remove(s);
            pool[owner(s)].add(s, false);
        }
        present(s);
    }

    /** Whether this placer owns server {@code s} (see {@link #setOwned}). */
    public boolean owns(int s) {
        return owned[s];
    }

    private int owner(int s) {
        return owned[s] ? MINE : OTHERS;
    }

    private List<MinTree[]> memberships(int s) {
        List<MinTree[]> m = new ArrayList<>();
        m.add(any);
        if (everyPool) {
            m.add(under.get(0));
        }
        if (pools[s] != null) {
            for (int p : pools[s]) {
                m.add(under.get(p + 1));
            }
        }
        return m;
    }

    /** Sets server {@code s}'s presence in its trees from its flags. */
    private void present(int s) {
        int o = owner(s);
        any[o].set(s, up[s]);
        boolean available = up[s] && !parked[s];
        if (everyPool) {
            under.get(0)[o].set(s, available);
        }
        if (pools[s] != null) {
            for (int p : pools[s]) {
                under.get(p + 1)[o].set(s, available);
            }
        }
        parkedTree.set(s, up[s] && parked[s]);
    }

    /** Re-ranks server {@code s} after its predicted idle time changed. */
    private void reranked(int s) {
        int o = owner(s);
        any[o].update(s);
        if (everyPool) {
            under.get(0)[o].update(s);
        }
        if (pools[s] != null) {
            for (int p : pools[s]) {
                under.get(p + 1)[o].update(s);
            }
        }
    }

    /**
     * Server {@code s} reported at {@code at}: {@code ongoingRequests} in flight holding {@code workSeconds} of work
     * (NaN when the report does not say). This placer's requests sent after {@code at} are queued behind it.
     * $O(w \log N)$ plus the requests re-queued.
     */
    public void report(int s, int ongoingRequests, double workSeconds, double at) {
        if (ongoingRequests < 0) {
            throw new IllegalArgumentException("ongoing requests (" + ongoingRequests + ") must be >= 0");
        }
        if (workSeconds < 0 || Double.isInfinite(workSeconds)) {
            throw new IllegalArgumentException("reported work (" + workSeconds + " s) must be finite and >= 0, or NaN");
        }
        boolean known = !Double.isNaN(workSeconds);
        double work = known ? workSeconds : ongoingRequests * meanRequestSeconds();
        reported[s] = ongoingRequests;
        reportedUntil[s] = known ? at + work : Double.POSITIVE_INFINITY;
        backlog[s] = work;
        asOf[s] = at;
        Requests q = own[s];
        q.dropSentBy(at);
        for (int i = 0; i < q.size; i++) {
            int k = q.slot(i);
            double start = Math.max(q.sent[k], asOf[s]);
            backlog[s] = Math.max(0, backlog[s] - (start - asOf[s])) + q.work[k];
            asOf[s] = start;
        }
        parked[s] = false; // the next pick looks at its new count
        present(s);
        reranked(s);
    }

    /** Predicted seconds of work at server {@code s} at time {@code now}. */
    public double backlog(int s, double now) {
        return Math.max(0, backlog[s] - Math.max(0, now - asOf[s]));
    }

    /**
     * Predicted requests in flight at server {@code s} at time {@code now}: the reported ones and this placer's own
     * since, until the server is predicted to drain (the reported ones until the next report when their work is
     * unknown).
     */
    public int ongoing(int s, double now) {
        forgetIfDrained(s, now);
        return reported[s] + own[s].size;
    }

    /**
     * Forgets server {@code s}'s requests once it is predicted to drain by {@code now} (the reported ones only when
     * their work is known: else they count until the next report).
     */
    private void forgetIfDrained(int s, double now) {
        if (now >= asOf[s] + backlog[s]) {
            own[s].clear();
            if (reportedUntil[s] != Double.POSITIVE_INFINITY) {
                reported[s] = 0;
            }
        }
    }

    /**
     * Records a request sent to server {@code s} at {@code now} with {@code workSeconds} of work there; returns its
     * predicted finish time, when the server is predicted to drain.
     */
    public double assign(int s, double workSeconds, double now) {
        if (!(workSeconds >= 0) || Double.isInfinite(workSeconds)) {
            throw new IllegalArgumentException("request work (" + workSeconds + " s) must be finite and >= 0");
        }
        double t = Math.max(now, asOf[s]);
        forgetIfDrained(s, t); // keeps the ring as long as the requests in flight, even if nobody asks ongoing()
        Requests q = own[s];
        backlog[s] = backlog(s, t) + workSeconds;
        asOf[s] = t;
        double finish = t + backlog[s];
        if (q.size == maxTracked) {
            q.dropOldest(); // the backlog still counts its work; only the count stops growing
        }
        q.add(now, workSeconds);
        reranked(s);
        ownWorkSum += workSeconds;
        ownCount++;
        return finish;
    }

    /**
     * Records a request sent at {@code now} whose task {@code t < tasks} runs on {@code servers[t]} and needs
     * {@code ops[t]} operations: one request on each server it uses, with the work $\sum p^t/\nu$ of its tasks
     * there. Tasks of 0 ops run nowhere and are skipped.
     */
    public void assignRequest(int[] servers, double[] ops, int tasks, double now) {
        int distinct = 0;
        int last = -1;
        int lastIndex = -1;
        for (int t = 0; t < tasks; t++) {
            double o = ops[t];
            if (o == 0) {
                continue;
            }
            int s = servers[t];
            if (s == last) { // tasks of a part are consecutive more often than not
                requestWork[lastIndex] += o;
                continue;
            }
            int i = 0;
            while (i < distinct && requestServers[i] != s) {
                i++;
            }
            if (i == distinct) {
                if (distinct == requestServers.length) {
                    requestServers = Arrays.copyOf(requestServers, distinct * 2);
                    requestWork = Arrays.copyOf(requestWork, distinct * 2);
                }
                requestServers[distinct] = s;
                requestWork[distinct++] = 0;
            }
            requestWork[i] += o; // operations for now: one division per server below, not per task
            last = s;
            lastIndex = i;
        }
        for (int i = 0; i < distinct; i++) {
            int s = requestServers[i];
            assign(s, opsPerSecond[s] > 0 ? requestWork[i] / opsPerSecond[s] : 0, now);
        }
    }

    /** The mean work of the requests this placer has sent (0 before the first). */
    public double meanRequestSeconds() {
        return ownCount == 0 ? 0 : ownWorkSum / ownCount;
    }

    /** The capacity of server {@code s}'s ring of own requests (for tests: it follows the requests in flight). */
    int ringCapacity(int s) {
        return own[s].sent.length;
    }

    /**
     * A server by the rule in the class comment for a request whose model is warm on the servers of pool
     * {@code warmPool} ({@link #EVERY_SERVER}: every server; {@link #NO_SERVER}: none), or -1 when no server is up.
     * When this placer shares the servers with others ({@link #setOwned}), it sees their requests only through the
     * reports, so it keeps to its own servers where it can: a warm one of its own under the target, else a warm one
     * of another's under the target (a cold start costs more than a second of stale counts), else the least
     * predicted backlog among its own, else among all. Does not record the request: call {@link #assign} once its
     * work per server is known.
     */
    public int pick(int warmPool, Taken taken, double now, RandomGenerator rng) {
        if (upCount == 0) {
            return -1;
        }
        unpark(now);
        if (warmPool == EVERY_SERVER && !everyPool) {
            everyPool = true;
            for (int x = 0; x < n; x++) {
                under.get(0)[owner(x)].add(x, up[x] && !parked[x]);
            }
        }
        MinTree[] pool = warmPool == NO_SERVER || warmPool + 1 >= under.size() ? null : under.get(warmPool + 1);
        int s = pool == null ? -1 : least(pool[MINE], taken, now, true);
        if (s < 0 && pool != null) {
            s = least(pool[OTHERS], taken, now, true);
        }
        if (s < 0) {
            s = least(any[MINE], taken, now, false);
        }
        if (s < 0) {
            s = least(any[OTHERS], taken, now, false);
        }
        return s >= 0 ? s : anyUp(taken, rng);
    }

    /**
     * The server a pick of pool {@code warmPool} would start from (the least of this placer's servers of the pool,
     * {@link #EVERY_SERVER} once picked from), or -1 when none.
     */
    public int next(int warmPool) {
        MinTree tree = nextTree(warmPool);
        return tree == null ? -1 : tree.min();
    }

    /** The tree a pick of pool {@code warmPool} reads first, or null when there is none. */
    private MinTree nextTree(int warmPool) {
        if (warmPool == EVERY_SERVER) {
            return everyPool ? under.get(0)[MINE] : null;
        }
        return warmPool < 0 || warmPool + 1 >= under.size() ? null : under.get(warmPool + 1)[MINE];
    }

    /**
     * Reads the state a pick of pool {@code warmPool} reads first, for the server it would start from (the least of
     * this placer's warm servers), and returns it summed; it changes nothing. At thousands of servers the next pick's
     * server is one not used for thousands of requests, so its state is out of the caches and each read on the pick's
     * path waits for the one before; read here, right after a request is recorded, the reads are independent and
     * overlap with the work that follows (writing the decision). Callers keep the sum so that the reads stay.
     */
    public double touchNext(int warmPool) {
        return touch(warmPool, next(warmPool));
    }

    /** {@link #touchNext} for server {@code s}, which the caller got from {@link #next} (0 when it is -1). */
    public double touch(int warmPool, int s) {
        MinTree tree = nextTree(warmPool);
        if (s < 0 || tree == null) {
            return 0;
        }
        Requests q = own[s];
        int[] p = pools[s];
        return tree.touch(s) + any[MINE].touch(s) + asOf[s] + backlog[s] + reportedUntil[s] + opsPerSecond[s]
                + reported[s] + onlyPool[s] + (p == null ? 0 : p[0]) + q.size + q.sent[q.head] + q.work[q.head];
    }

    /**
     * Any up server uniformly (every one is taken), or one not {@link Taken#excluded} uniformly ($O(N)$, only when
     * a rule excludes servers and every allowed one is taken), or -1 when every up server is excluded.
     */
    private int anyUp(Taken taken, RandomGenerator rng) {
        if (!taken.excludes()) {
            return upList[rng.nextInt(upCount)];
        }
        int chosen = -1;
        int seen = 0;
        for (int i = 0; i < upCount; i++) {
            int s = upList[i];
            if (!taken.excluded(s) && rng.nextInt(++seen) == 0) {
                chosen = s;
            }
        }
        return chosen;
    }

    /** Returns to their pools the parked servers whose count is predicted under the target at {@code now}. */
    private void unpark(double now) {
        for (int s = parkedTree.min(); s >= 0 && underFrom[s] <= now; s = parkedTree.min()) {
            parked[s] = false;
            present(s);
        }
    }

    /**
     * The present server of {@code tree} not taken (and under the target if asked: one found at it is parked) with
     * the least predicted backlog, or -1; the taken ones are put back before returning.
     */
    private int least(MinTree tree, Taken taken, double now, boolean underTarget) {
        int skips = 0;
        int found = -1;
        for (int s = tree.min(); s >= 0; s = tree.min()) {
            if (underTarget && ongoing(s, now) >= target) {
                underFrom[s] = underTargetFrom(s);
                parked[s] = true;
                present(s);
                continue;
            }
            if (!taken.taken(s)) {
                found = s;
                break;
            }
            if (skips == skipped.length) {
                skipped = Arrays.copyOf(skipped, 2 * skips);
            }
            skipped[skips++] = s;
            tree.set(s, false);
        }
        for (int i = 0; i < skips; i++) {
            tree.set(skipped[i], true);
        }
        return found;
    }

    /**
     * The earliest time at which server {@code s}'s predicted count is under the target, when it is at the target
     * now: when it drains, or at its next report when its reported requests alone reach the target and their work
     * is unknown.
     */
    private double underTargetFrom(int s) {
        return Double.isInfinite(reportedUntil[s]) && reported[s] >= target
                ? Double.POSITIVE_INFINITY : asOf[s] + backlog[s];
    }

    /** A growable ring of requests, in send order. */
    private static final class Requests {
        double[] sent = new double[4];
        double[] work = new double[4];
        int head;
        int size;

        int slot(int i) {
            return (head + i) & (sent.length - 1);
        }

        void add(double at, double w) {
            if (size == sent.length) {
                grow();
            }
            int k = slot(size);
            sent[k] = at;
            work[k] = w;
            size++;
        }

        void clear() {
            head = 0;
            size = 0;
        }

        void dropOldest() {
            head = (head + 1) & (sent.length - 1);
            size--;
        }

        /** Drops the requests sent at or before {@code at} (send times grow along the ring). */
        void dropSentBy(double at) {
            while (size > 0 && sent[head] <= at) {
                head = (head + 1) & (sent.length - 1);
                size--;
            }
        }

        private void grow() {
            double[][] next = {new double[sent.length * 2], new double[sent.length * 2]};
            for (int i = 0; i < size; i++) {
                int k = slot(i);
                next[0][i] = sent[k];
                next[1][i] = work[k];
            }
            sent = next[0];
            work = next[1];
            head = 0;
        }

        Requests copy() {
            Requests c = new Requests();
            c.sent = sent.clone();
            c.work = work.clone();
            c.head = head;
            c.size = size;
            return c;
        }
    }
}
