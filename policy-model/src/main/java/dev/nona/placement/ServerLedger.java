package dev.nona.placement;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * What a placer knows of each server's load between two reports, and the rule that uses it. A server reports the
 * requests it has in flight and the seconds of work it holds (queued, running, and stages waiting for their
 * inputs) at a time $t_r$; between reports the ledger predicts, as the thesis's {@code MASched} counts a request the
 * moment it routes it: the backlog drains at one second of work per second, and every request this placer sends
 * there adds its work $\sum_t p^t/\nu$ (the tasks it runs there) behind the backlog, FIFO, so it is predicted to
 * finish at $t + B(t) + w$. The ongoing requests of a server at $t$ are those of its report (until its reported
 * work has drained) plus this placer's own requests not yet predicted finished.
 *
 * <p>A report forgets this placer's requests sent at or before $t_r$ (the report counts them) and re-queues the later
 * ones behind the reported work. When a report does not say its work (an older agent), the backlog is estimated as
 * its requests times the mean work of this placer's requests, and its requests count until the next report.
 *
 * <p>The rule ({@link #pick}): a warm server, not yet taken by the request, with fewer ongoing requests than the
 * target, the one with the least predicted backlog; when there is none, the server not taken with the least
 * predicted backlog; when every server is taken, any server uniformly. Placers that run in parallel each see only
 * their own requests between reports; each then owns a share of the servers ({@link #own}) and prefers it. Scans
 * start at a random server and ties go to the first met. This is join-the-shortest-queue on queued work (Harchol-Balter, "Performance Modeling and
 * Design of Computer Systems", Cambridge University Press, 2013, Ch. 24) with the thesis's warm-first colocation
 * and its target of ongoing requests. The simulator's {@code nona-controller} policy and the controller's
 * placement operator both use this class.
 *
 * <p>A server's ring tracks at most $\max(64, 4 \cdot target)$ of this placer's requests (the oldest are dropped
 * from the count, not from the backlog), so memory stays bounded when reports stop while requests keep coming.
 *
 * <p>Times are seconds on the placer's clock (event time in the controller, simulated time in the simulator); a
 * time earlier than the last one seen for a server drains nothing. {@link #pick} is $O(N)$ plus the amortised cost
 * of dropping finished requests; it does not allocate. Not thread-safe.
 */
public final class ServerLedger {
    /** Tells which servers a request already uses. */
    @FunctionalInterface
    public interface Taken {
        Taken NONE = s -> false;

        boolean taken(int server);
    }

    private final int n;
    private final int target;
    /**
     * The most requests a server's ring tracks: enough to tell a server at the target from one under it, and a
     * bound on memory when reports stop coming (or time stops advancing) while requests keep arriving.
     */
    private final int maxTracked;
    /** Each server's compute rate $\nu$, ops/s, to turn a task's $p^t$ into seconds of work. */
    private final double[] opsPerSecond;
    /** Predicted seconds of work at each server as of {@link #asOf}. */
    private final double[] backlog;
    private final double[] asOf;
    private final int[] reported;
    /** When the reported requests are predicted done: report time plus reported work; infinite when unknown. */
    private final double[] reportedUntil;
    /** The servers this placer prefers, when it shares them with other placers ({@link #own}); null: all. */
    private boolean[] owned;
    /** Per server, a FIFO of this placer's own requests since the report: send time, work, predicted finish. */
    private final Requests[] own;
    private double ownWorkSum;
    private long ownCount;
    /** Scratch for {@link #assignRequest}: the request's distinct servers and its work on each. */
    private int[] requestServers = new int[8];
    private double[] requestWork = new double[8];

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
        int servers = opsPerSecond.length;
        if (servers < 1) {
            throw new IllegalArgumentException("servers (" + servers + ") must be >= 1");
        }
        for (int s = 0; s < servers; s++) {
            if (!(opsPerSecond[s] >= 0) || Double.isInfinite(opsPerSecond[s])) {
                throw new IllegalArgumentException("compute rate of server " + s + " (" + opsPerSecond[s] + " ops/s) must be finite and >= 0");
            }
        }
        this.opsPerSecond = opsPerSecond.clone();
        if (targetOngoingRequests < 1) {
            throw new IllegalArgumentException("target ongoing requests (" + targetOngoingRequests + ") must be >= 1");
        }
        this.n = servers;
        this.target = targetOngoingRequests;
        this.maxTracked = Math.max(64, 4 * targetOngoingRequests);
        this.backlog = new double[n];
        this.asOf = new double[n];
        this.reported = new int[n];
        this.reportedUntil = new double[n];
        this.own = new Requests[n];
        for (int s = 0; s < n; s++) {
            own[s] = new Requests();
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

    public int servers() {
        return n;
    }

    /**
     * Server {@code s} reported at {@code at}: {@code ongoingRequests} in flight holding {@code workSeconds} of work
     * (NaN when the report does not say). This placer's requests sent after {@code at} are queued behind it.
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
            q.finish[k] = start + backlog[s];
        }
    }

    /** Predicted seconds of work at server {@code s} at time {@code now}. */
    public double backlog(int s, double now) {
        return Math.max(0, backlog[s] - Math.max(0, now - asOf[s]));
    }

    /** Predicted requests in flight at server {@code s} at time {@code now}. */
    public int ongoing(int s, double now) {
        Requests q = own[s];
        q.dropFinishedBy(now);
        return (now < reportedUntil[s] ? reported[s] : 0) + q.size;
    }

    /**
     * Records a request sent to server {@code s} at {@code now} with {@code workSeconds} of work there; returns its
     * predicted finish time.
     */
    public double assign(int s, double workSeconds, double now) {
        if (!(workSeconds >= 0) || Double.isInfinite(workSeconds)) {
            throw new IllegalArgumentException("request work (" + workSeconds + " s) must be finite and >= 0");
        }
        double t = Math.max(now, asOf[s]);
        backlog[s] = backlog(s, t) + workSeconds;
        asOf[s] = t;
        double finish = t + backlog[s];
        Requests q = own[s];
        q.dropFinishedBy(t); // keeps the ring as long as the requests in flight, even if nobody asks ongoing()
        if (q.size == maxTracked) {
            q.dropOldest(); // the backlog still counts its work; only the count stops growing
        }
        q.add(now, workSeconds, finish);
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

    /** Copies server {@code from}'s entry of {@code other} into server {@code s} of this ledger (a rebuild). */
    public void copy(int s, ServerLedger other, int from) {
        backlog[s] = other.backlog[from];
        asOf[s] = other.asOf[from];
        reported[s] = other.reported[from];
        reportedUntil[s] = other.reportedUntil[from];
        own[s] = other.own[from].copy();
    }

    /** Continues {@code other}'s mean request work ({@link #meanRequestSeconds}), for a rebuild. */
    public void continueMean(ServerLedger other) {
        ownWorkSum = other.ownWorkSum;
        ownCount = other.ownCount;
    }

    /**
     * Makes this ledger's placer one of {@code shards} that share the servers: it owns the servers whose index is
     * {@code shard} modulo {@code shards} and prefers them (see {@link #pick}). With one shard it owns every server.
     */
    public void own(int shard, int shards) {
        if (shards < 1 || shard < 0 || shard >= shards) {
            throw new IllegalArgumentException("shard (" + shard + ") must be in [0, shards (" + shards + "))");
        }
        if (shards == 1) {
            owned = null;
            return;
        }
        owned = new boolean[n];
        for (int s = 0; s < n; s++) {
            owned[s] = s % shards == shard;
        }
    }

    /** Whether this placer owns server {@code s} (see {@link #own}). */
    public boolean owns(int s) {
        return owned == null || owned[s];
    }

    /**
     * A server by the rule in the class comment; {@code warm} lists the servers holding the model warm (null:
     * every server). When this placer shares the servers with others ({@link #own}), it sees their requests only
     * through the reports, so it keeps to its own servers where it can: a warm one of its own under the target,
     * else a warm one of another's under the target (a cold start costs more than a second of stale counts), else
     * the least predicted backlog among its own, else among all. Does not record the request: call
     * {@link #assign} once its work per server is known.
     */
    public int pick(int[] warm, Taken taken, double now, RandomGenerator rng) {
        int s = least(warm, taken, now, rng, true, MINE);
        if (s < 0 && owned != null) {
            s = least(warm, taken, now, rng, true, OTHERS);
        }
        if (s < 0) {
            s = least(null, taken, now, rng, false, MINE);
        }
        if (s < 0 && owned != null) {
            s = least(null, taken, now, rng, false, ANY);
        }
        return s >= 0 ? s : rng.nextInt(n);
    }

    private static final int MINE = 0;
    private static final int OTHERS = 1;
    private static final int ANY = 2;

    /**
     * The server of {@code pool} (null: all) not taken, of the given owner, under the target if asked, with the
     * least predicted backlog; the scan starts at a random one and stops at an idle one; -1 when none qualifies.
     */
    private int least(int[] pool, Taken taken, double now, RandomGenerator rng, boolean underTarget, int whose) {
        int count = pool == null ? n : pool.length;
        if (count == 0) {
            return -1;
        }
        int start = rng.nextInt(count);
        int best = -1;
        double bestWork = Double.POSITIVE_INFINITY;
        for (int i = 0; i < count && bestWork > 0; i++) {
            int s = pool == null ? (start + i) % count : pool[(start + i) % count];
            if (whose != ANY && owns(s) != (whose == MINE)) {
                continue;
            }
            double w = backlog(s, now);
            if (w >= bestWork || taken.taken(s) || (underTarget && ongoing(s, now) >= target)) {
                continue; // the cheap test first: most servers lose on backlog before their count is looked at
            }
            best = s;
            bestWork = w;
        }
        return best;
    }

    /** A growable ring of requests, in send order. */
    private static final class Requests {
        double[] sent = new double[4];
        double[] work = new double[4];
        double[] finish = new double[4];
        int head;
        int size;

        int slot(int i) {
            return (head + i) & (sent.length - 1);
        }

        void add(double at, double w, double f) {
            if (size == sent.length) {
                grow();
            }
            int k = slot(size);
            sent[k] = at;
            work[k] = w;
            finish[k] = f;
            size++;
        }

        /** Drops the requests predicted finished by {@code now} (finish times grow along the ring). */
        void dropFinishedBy(double now) {
            while (size > 0 && finish[head] <= now) {
                head = (head + 1) & (sent.length - 1);
                size--;
            }
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
            double[][] next = {new double[sent.length * 2], new double[sent.length * 2], new double[sent.length * 2]};
            for (int i = 0; i < size; i++) {
                int k = slot(i);
                next[0][i] = sent[k];
                next[1][i] = work[k];
                next[2][i] = finish[k];
            }
            sent = next[0];
            work = next[1];
            finish = next[2];
            head = 0;
        }

        Requests copy() {
            Requests c = new Requests();
            c.sent = sent.clone();
            c.work = work.clone();
            c.finish = finish.clone();
            c.head = head;
            c.size = size;
            return c;
        }
    }
}
