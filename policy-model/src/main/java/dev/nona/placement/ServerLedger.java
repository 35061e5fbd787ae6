package dev.nona.placement;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;
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
 * (a model's warm servers, and every server) is kept in tournament trees keyed by $T_s$ ({@link PickIndex}), one
 * for the servers this placer owns and one for the others, so the least backlog is the root and a report or a
 * request re-ranks a server in $O(w \log N)$ ($w$: the pools it is in). A server found at the target is parked in a
 * tree keyed by the time its count is predicted to fall under the target, and returns to its pools at that time or
 * at its next report. A pick is then $O((1 + k) \log N)$, where $k$ counts the servers it skips (those the request
 * already took, and servers parked now, each once per change of its count): it never scans the servers, and does
 * not allocate. The order differs from a scan by predicted backlog only for a time earlier than a server's last
 * update (out-of-order times), and among idle servers, where the longest idle comes first (a scan took the first
 * met from a random start).
 *
 * <p><b>Parts.</b> This class states the rule ({@link #pick}) and keeps its parts in step: {@link LoadForecast}
 * predicts each server's backlog and count, {@link WarmPools} holds which pools each server is in, {@link UpServers}
 * the servers that may be picked, {@link PickIndex} the trees a pick reads, {@link BlockBounds} the per-block bounds
 * by which the memory-aware rule's scan passes over servers, and {@link ReadAhead} reads the next pick's server into
 * the CPU caches after each {@link #assignRequest} (from 1,024 servers; nothing a pick reads changes).
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

    private final int target;
    private final LoadForecast forecast;
    private final WarmPools pools = new WarmPools();
    private final UpServers up = new UpServers();
    private final PickIndex index;
    /** Per block of servers, the lower bound the memory-aware rule's scan passes over blocks by. */
    private final BlockBounds bounds;
    private final ReadAhead readAhead;
    /** The pool of the latest {@link #pick}: the next request's, most likely (for {@link #readAhead}). */
    private int lastPool = NO_SERVER;
    /** Scratch for {@link #assignRequest}: the request's distinct servers and its work on each. */
    private int[] requestServers = new int[8];
    private double[] requestWork = new double[8];
    private double[] requestLoad = new double[8];

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
            LoadForecast.requireRate(s, opsPerSecond[s]);
        }
        for (double rate : opsPerSecond) {
            addServer(rate);
        }
    }

    /** No server yet: add them with {@link #addServer}. */
    public ServerLedger(int targetOngoingRequests) {
        this(targetOngoingRequests, new ReadAhead(ReadAhead.DEFAULT_FROM));
    }

    /** As {@link #ServerLedger(int)}, with its own {@code readAhead} (tests). */
    ServerLedger(int targetOngoingRequests, ReadAhead readAhead) {
        if (targetOngoingRequests < 1) {
            throw new IllegalArgumentException("target ongoing requests (" + targetOngoingRequests + ") must be >= 1");
        }
        this.target = targetOngoingRequests;
        this.forecast = new LoadForecast(Math.max(64, 4 * targetOngoingRequests));
        this.index = new PickIndex(forecast, pools, up, targetOngoingRequests);
        this.bounds = new BlockBounds(forecast, up);
        this.readAhead = readAhead;
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
        return forecast.servers();
    }

    /** Servers up. */
    public int upCount() {
        return up.count();
    }

    /**
     * Adds a server, up, owned by this placer, idle and in no warm pool, of compute rate {@code opsPerSecond}
     * (finite, {@code >= 0}); returns its index, {@link #servers()} before the call. $O(\log N)$ amortised.
     */
    public int addServer(double opsPerSecond) {
        int s = forecast.servers();
        LoadForecast.requireRate(s, opsPerSecond);
        forecast.addServer(opsPerSecond);
        bounds.addServer();
        pools.addServer();
        up.addServer();
        index.addServer(s);
        setUp(s, true);
        return s;
    }

    /** Server {@code s}'s compute rate $\nu$ from now on (finite, {@code >= 0}). */
    public void setRate(int s, double opsPerSecond) {
        forecast.setRate(s, opsPerSecond);
        bounds.changed(s);
    }

    /** Whether server {@code s} may be picked; a down server keeps its entry. $O(w \log N)$. */
    public void setUp(int s, boolean isUp) {
        if (up.set(s, isUp)) {
            index.present(s);
            bounds.regroup(s);
        }
    }

    public boolean isUp(int s) {
        return up.isUp(s);
    }

    /** Whether server {@code s} is in warm pool {@code pool} ({@link #setPools}; false for a negative pool). $O(w)$. */
    public boolean inPool(int s, int pool) {
        return pools.inPool(s, pool);
    }

    /** The warm pools of server {@code s}, or null when none (not a copy: do not change it). */
    int[] pools(int s) {
        return pools.of(s);
    }

    /** Server {@code s}'s compute rate $\nu$, ops/s. */
    public double rate(int s) {
        return forecast.rate(s);
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
        index.setPools(s, warmPools);
    }

    /**
     * Makes this ledger's placer one of {@code shards} that share the servers: it owns the servers whose index is
     * {@code shard} modulo {@code shards} and prefers them (see {@link #pick}). With one shard it owns every server.
     */
    public void own(int shard, int shards) {
        if (shards < 1 || shard < 0 || shard >= shards) {
            throw new IllegalArgumentException("shard (" + shard + ") must be in [0, shards (" + shards + "))");
        }
        for (int s = 0; s < servers(); s++) {
            setOwned(s, s % shards == shard);
        }
    }

    /** Whether this placer owns server {@code s} and prefers it (see {@link #pick}); new servers are owned. */
    public void setOwned(int s, boolean mine) {
        index.setOwned(s, mine);
    }

    /** Whether this placer owns server {@code s} (see {@link #setOwned}). */
    public boolean owns(int s) {
        return index.owns(s);
    }

    /**
     * Server {@code s} reported at {@code at}: {@code ongoingRequests} in flight holding {@code workSeconds} of work
     * (NaN when the report does not say). This placer's requests sent after {@code at} are queued behind it.
     * $O(w \log N)$ plus the requests re-queued.
     */
    public void report(int s, int ongoingRequests, double workSeconds, double at) {
        forecast.report(s, ongoingRequests, workSeconds, at);
        bounds.changed(s);
        index.reported(s);
    }

    /**
     * A lower bound on a server's backlog at {@code now} plus {@code ops} at its rate, over the up servers of block
     * {@code block} ({@link BlockBounds#BLOCK} servers from {@code block} times it) whose memory
     * ({@link #memoryOf}) holds {@code bytes}: see {@link BlockBounds#finishLowerBound}.
     */
    double finishLowerBound(int block, double ops, double bytes, double now) {
        return bounds.finishLowerBound(block, ops, bytes, now);
    }

    /**
     * Where {@link #finishLowerBound} reads each server's memory for parts ({@code > 0}, or
     * {@link dev.nona.workload.ServerClass#UNBOUNDED}: every part fits; unbounded until set). The caller tells each
     * change ({@link #memoryChanged}).
     */
    void memoryOf(IntToDoubleFunction memory) {
        bounds.memoryOf(memory);
    }

    /** Server {@code s}'s memory (as {@link #memoryOf} reads it) changed. */
    void memoryChanged(int s) {
        bounds.regroup(s);
    }

    /** Predicted seconds of work at server {@code s} at time {@code now}. */
    public double backlog(int s, double now) {
        return forecast.backlog(s, now);
    }

    /**
     * Predicted requests in flight at server {@code s} at time {@code now}: the reported ones and this placer's own
     * since, until the server is predicted to drain (the reported ones until the next report when their work is
     * unknown).
     */
    public int ongoing(int s, double now) {
        return forecast.ongoing(s, now);
    }

    /**
     * Records a request sent to server {@code s} at {@code now} with {@code workSeconds} of work there; returns its
     * predicted finish time, when the server is predicted to drain.
     */
    public double assign(int s, double workSeconds, double now) {
        double finish = forecast.assign(s, workSeconds, now);
        bounds.changed(s);
        index.reranked(s);
        return finish;
    }

    /**
     * Records a request sent at {@code now} whose task {@code t < tasks} runs on {@code servers[t]} and needs
     * {@code ops[t]} operations: one request on each server it uses, with the work $\sum p^t/\nu$ of its tasks
     * there. Tasks of 0 ops run nowhere and are skipped. Then reads ahead for the next pick ({@link ReadAhead}).
     */
    public void assignRequest(int[] servers, double[] ops, int tasks, double now) {
        assignRequest(servers, ops, null, tasks, now);
    }

    /**
     * As {@link #assignRequest(int[], double[], int, double)}, where {@code loads[t]} (null: none) of task {@code t}'s
     * operations stand for seconds of a predicted cold start on its server (counted in {@code ops[t]} at the server's
     * rate): the server's reports do not show a load as work, so the ledger keeps it until the part is predicted
     * done (see {@link LoadForecast}).
     */
    public void assignRequest(int[] servers, double[] ops, double[] loads, int tasks, double now) {
        int distinct = 0;
        int last = -1;
        int lastIndex = -1;
        for (int t = 0; t < tasks; t++) {
            double o = ops[t];
            if (o == 0) {
                continue;
            }
            int s = servers[t];
            double l = loads == null ? 0 : loads[t];
            if (s == last) { // tasks of a part are consecutive more often than not
                requestWork[lastIndex] += o;
                requestLoad[lastIndex] += l;
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
                    requestLoad = Arrays.copyOf(requestLoad, distinct * 2);
                }
                requestServers[distinct] = s;
                requestLoad[distinct] = 0;
                requestWork[distinct++] = 0;
            }
            requestLoad[i] += l;
            requestWork[i] += o; // operations for now: one division per server below, not per task
            last = s;
            lastIndex = i;
        }
        for (int i = 0; i < distinct; i++) {
            int s = requestServers[i];
            double rate = forecast.rate(s);
            if (requestLoad[i] > 0 && rate > 0) {
                double work = requestWork[i] / rate;
                forecast.assign(s, work, Math.min(requestLoad[i], work), now);
                bounds.changed(s);
                index.reranked(s);
            } else {
                assign(s, rate > 0 ? requestWork[i] / rate : 0, now);
            }
        }
        readAhead.next(lastPool, servers(), index, forecast, pools);
    }

    /**
     * The one hook of the read-ahead for a caller: {@code reader} reads the caller's own state of a server that the
     * next pick's decision will read (e.g. its id), alongside the ledger's ({@link ReadAhead}); it must change
     * nothing.
     */
    void readAheadAlso(IntToDoubleFunction reader) {
        readAhead.also(reader);
    }

    /** Servers read ahead so far (for tests). */
    long readAheads() {
        return readAhead.reads();
    }

    /** The mean work of the requests this placer has sent (0 before the first). */
    public double meanRequestSeconds() {
        return forecast.meanRequestSeconds();
    }

    /** The capacity of server {@code s}'s ring of own requests (for tests: it follows the requests in flight). */
    int ringCapacity(int s) {
        return forecast.ringCapacity(s);
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
        if (up.count() == 0) {
            return -1;
        }
        lastPool = warmPool;
        index.unpark(now);
        if (warmPool == EVERY_SERVER) {
            index.keepEveryServer();
        }
        int s = index.leastWarm(warmPool, true, taken, now);
        if (s < 0) {
            s = index.leastWarm(warmPool, false, taken, now);
        }
        if (s < 0) {
            s = index.leastBacklog(true, taken, now);
        }
        if (s < 0) {
            s = index.leastBacklog(false, taken, now);
        }
        return s >= 0 ? s : up.any(taken, rng);
    }
}
