package dev.nona.placement;

import java.util.Arrays;

/**
 * Each server's predicted load between two of its reports: its backlog (seconds of work) and its ongoing requests,
 * as {@link ServerLedger}'s class comment states the rule. A report at $t_r$ sets the backlog and the count; the
 * backlog drains at one second of work per second; every request this placer sends there adds its work behind it.
 * Those requests are kept in a ring per server ({@link RequestRing}) so that a report can forget the ones sent by
 * $t_r$ (it counts them) and re-queue the later ones behind the reported work, and so that they count as ongoing
 * until the server is predicted to drain.
 *
 * <p>A server's predicted idle time $T_s = t_s + B_s$ ({@link #idleAt}) orders servers by backlog at any time (every
 * backlog drains at the same rate), and changes only at {@link #report} and {@link #assign}: the pick index's key.
 * Times are seconds on the placer's clock; a time earlier than the last one seen for a server drains nothing.
 * $O(1)$ per call but a report (plus the requests re-queued). Not thread-safe.
 */
final class LoadForecast {
    /** The most requests a server's ring tracks (the oldest are dropped from the count, not from the backlog). */
    private final int maxTracked;
    private int n;
    /** Each server's compute rate $\nu$, ops/s, to turn a task's $p^t$ into seconds of work. */
    private double[] opsPerSecond = new double[0];
    /** Predicted seconds of work at each server as of {@link #asOf}. */
    private double[] backlog = new double[0];
    private double[] asOf = new double[0];
    private int[] reported = new int[0];
    /** When the reported work drains: report time plus reported work; infinite when unknown (count to the next report). */
    private double[] reportedUntil = new double[0];
    /** Per server, this placer's own requests since the report (until it drains). */
    private RequestRing[] own = new RequestRing[0];
    /**
     * Per server, the latest cold start this placer sent there ({@link #assign(int, double, double, double)}): when
     * the request was sent, the load's seconds, and when its part is predicted to finish (load and compute).
     */
    private double[] coldSent = new double[0];
    private double[] coldLoad = new double[0];
    private double[] coldUntil = new double[0];
    private double ownWorkSum;
    private long ownCount;

    /** @param maxTracked the most requests a server's ring tracks, {@code >= 1} */
    LoadForecast(int maxTracked) {
        this.maxTracked = maxTracked;
    }

    static void requireRate(int s, double rate) {
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("compute rate of server " + s + " (" + rate + " ops/s) must be finite and >= 0");
        }
    }

    /** Adds server {@link #servers()}, idle, of compute rate {@code opsPerSecond} (checked by the caller). */
    void addServer(double opsPerSecond) {
        int s = n;
        if (s == this.opsPerSecond.length) {
            int c = Math.max(4, 2 * s);
            this.opsPerSecond = Arrays.copyOf(this.opsPerSecond, c);
            backlog = Arrays.copyOf(backlog, c);
            asOf = Arrays.copyOf(asOf, c);
            reported = Arrays.copyOf(reported, c);
            reportedUntil = Arrays.copyOf(reportedUntil, c);
            own = Arrays.copyOf(own, c);
            coldSent = Arrays.copyOf(coldSent, c);
            coldLoad = Arrays.copyOf(coldLoad, c);
            coldUntil = Arrays.copyOf(coldUntil, c);
        }
        n++;
        this.opsPerSecond[s] = opsPerSecond;
        own[s] = new RequestRing();
    }

    int servers() {
        return n;
    }

    void setRate(int s, double opsPerSecond) {
        requireRate(s, opsPerSecond);
        this.opsPerSecond[s] = opsPerSecond;
    }

    double rate(int s) {
        return opsPerSecond[s];
    }

    /** Server {@code s}'s predicted idle time $T_s$: the time of its last update plus its backlog then. */
    double idleAt(int s) {
        return asOf[s] + backlog[s];
    }

    /** See {@link ServerLedger#report}. */
    void report(int s, int ongoingRequests, double workSeconds, double at) {
        if (ongoingRequests < 0) {
            throw new IllegalArgumentException("ongoing requests (" + ongoingRequests + ") must be >= 0");
        }
        if (workSeconds < 0 || Double.isInfinite(workSeconds)) {
            throw new IllegalArgumentException("reported work (" + workSeconds + " s) must be finite and >= 0, or NaN");
        }
        boolean known = !Double.isNaN(workSeconds);
        double work = known ? workSeconds + unreportedLoad(s, at) : ongoingRequests * meanRequestSeconds();
        reported[s] = ongoingRequests;
        reportedUntil[s] = known ? at + work : Double.POSITIVE_INFINITY;
        backlog[s] = work;
        asOf[s] = at;
        RequestRing q = own[s];
        q.dropSentBy(at);
        for (int i = 0; i < q.size(); i++) {
            double start = Math.max(q.sent(i), asOf[s]);
            backlog[s] = Math.max(0, backlog[s] - (start - asOf[s])) + q.work(i);
            asOf[s] = start;
        }
    }

    /**
     * The load that a report of server {@code s} at {@code at} does not show: a report says the seconds of compute
     * the server holds, and a cold start is not compute. While the part of the latest cold start this placer sent
     * there by {@code at} is predicted to run ($t_r$ before its predicted finish), the load's $T_{CS}$ seconds are
     * added to the reported work; once it is predicted done, nothing. (The engine's report, like an executor's,
     * leaves the load out for as long as the cold part runs; a report that showed the compute already done would be
     * under-counted by the load all the same.)
     */
    private double unreportedLoad(int s, double at) {
        return coldLoad[s] > 0 && coldSent[s] <= at && at < coldUntil[s] ? coldLoad[s] : 0;
    }

    /** Predicted seconds of work at server {@code s} at time {@code now}. */
    double backlog(int s, double now) {
        return Math.max(0, backlog[s] - Math.max(0, now - asOf[s]));
    }

    /**
     * Server {@code s}'s backlog as of its last update ({@link #idleAt} less that time): its backlog at any time up to
     * then, and at least its backlog after ({@link BlockBounds}).
     */
    double storedBacklog(int s) {
        return backlog[s];
    }

    /** See {@link ServerLedger#ongoing}. */
    int ongoing(int s, double now) {
        forgetIfDrained(s, now);
        return reported[s] + own[s].size();
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

    /** See {@link ServerLedger#assign}. */
    double assign(int s, double workSeconds, double now) {
        return assign(s, workSeconds, 0, now);
    }

    /**
     * As {@link #assign(int, double, double)}, of which {@code loadSeconds} (at most the work) is a cold start that
     * the server's reports will not show as work ({@link #unreportedLoad}).
     */
    double assign(int s, double workSeconds, double loadSeconds, double now) {
        if (!(workSeconds >= 0) || Double.isInfinite(workSeconds)) {
            throw new IllegalArgumentException("request work (" + workSeconds + " s) must be finite and >= 0");
        }
        double t = Math.max(now, asOf[s]);
        forgetIfDrained(s, t); // keeps the ring as long as the requests in flight, even if nobody asks ongoing()
        RequestRing q = own[s];
        backlog[s] = backlog(s, t) + workSeconds;
        asOf[s] = t;
        double finish = t + backlog[s];
        if (loadSeconds > 0) {
            coldSent[s] = now;
            coldLoad[s] = loadSeconds;
            coldUntil[s] = finish;
        }
        if (q.size() == maxTracked) {
            q.dropOldest(); // the backlog still counts its work; only the count stops growing
        }
        q.add(now, workSeconds);
        ownWorkSum += workSeconds;
        ownCount++;
        return finish;
    }

    /** The mean work of the requests this placer has sent (0 before the first). */
    double meanRequestSeconds() {
        return ownCount == 0 ? 0 : ownWorkSum / ownCount;
    }

    /**
     * The earliest time at which server {@code s}'s predicted count is under {@code target}, when it is at the
     * target now: when it drains, or at its next report when its reported requests alone reach the target and their
     * work is unknown.
     */
    double underTargetFrom(int s, int target) {
        return Double.isInfinite(reportedUntil[s]) && reported[s] >= target
                ? Double.POSITIVE_INFINITY : asOf[s] + backlog[s];
    }

    /** The capacity of server {@code s}'s ring of own requests (for tests: it follows the requests in flight). */
    int ringCapacity(int s) {
        return own[s].capacity();
    }

    /** Reads what a pick and an assign read of server {@code s} and returns their sum; changes nothing. */
    double touch(int s) {
        return asOf[s] + backlog[s] + reportedUntil[s] + opsPerSecond[s] + reported[s] + own[s].touch();
    }
}
