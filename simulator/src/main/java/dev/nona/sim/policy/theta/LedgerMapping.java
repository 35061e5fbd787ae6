package dev.nona.sim.policy.theta;

import dev.nona.placement.ServerLedger;
import dev.nona.sim.JobClass;
import dev.nona.sim.JobKind;
import dev.nona.sim.engine.ClusterView;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The controller's server rule, as its placement operator runs it (policy-model's {@link ServerLedger}, used by
 * {@code WarmFirstServers} in {@code flink-jobs}): every {@code reportSeconds} of simulated time each server
 * reports its ongoing requests and the seconds of work placed on it and not done; between reports the ledger
 * predicts both from this policy's own jobs, each adding $\sum_t p^t/\nu$ of the tasks it runs there and draining
 * at one second of work per second. A part goes to a server under the target of ongoing requests with the least
 * predicted backlog, else to the least predicted backlog; parts of one subgraph go to distinct servers. In the
 * simulator every server holds every model warm.
 *
 * <p>The prediction misses only what this policy cannot see between two reports: background jobs (not the
 * controller's decisions), and time a server idles while a task waits for its inputs on the link.
 *
 * <p>Based on the model-aware scheduling thesis ({@code MASched} counts a request the moment it routes it; target
 * of 3 ongoing requests) and join-the-shortest-queue on queued work. $O(\log N)$ per pick (the ledger's index); not thread-safe.
 */
public final class LedgerMapping implements ServerMapping {
    private final int target;
    private final double reportSeconds;
    private final double opsPerSecond;
    private final int shard;
    private final int shards;
    private ServerLedger ledger;
    private double reportedAt = Double.NEGATIVE_INFINITY;
    private final Map<JobClass, double[]> opsOf = new IdentityHashMap<>();

    /**
     * @param target        the target of ongoing requests per server, {@code >= 1}
     * @param reportSeconds how often every server reports (0: before every pick)
     * @param opsPerSecond  the servers' compute rate $\nu$, to predict a task's work $p^t/\nu$
     */
    public LedgerMapping(int target, double reportSeconds, double opsPerSecond) {
        this(target, reportSeconds, opsPerSecond, 0, 1);
    }

    /**
     * One of {@code shards} placers that share the servers, as the controller's placement subtasks do: this one
     * prefers the servers it owns ({@link ServerLedger#own}).
     */
    public LedgerMapping(int target, double reportSeconds, double opsPerSecond, int shard, int shards) {
        if (target < 1) {
            throw new IllegalArgumentException("target ongoing requests (" + target + ") must be >= 1");
        }
        if (!(reportSeconds >= 0) || Double.isInfinite(reportSeconds)) {
            throw new IllegalArgumentException("telemetry report period (" + reportSeconds + " s) must be finite and >= 0");
        }
        if (!(opsPerSecond > 0) || Double.isInfinite(opsPerSecond)) {
            throw new IllegalArgumentException("server compute rate (" + opsPerSecond + " ops/s) must be finite and > 0");
        }
        this.target = target;
        this.reportSeconds = reportSeconds;
        this.opsPerSecond = opsPerSecond;
        if (shards < 1 || shard < 0 || shard >= shards) {
            throw new IllegalArgumentException("shard (" + shard + ") must be in [0, shards (" + shards + "))");
        }
        this.shard = shard;
        this.shards = shards;
    }

    @Override
    public int first(ClusterView view, SplittableRandom random) {
        refresh(view);
        return ledger.pick(ServerLedger.EVERY_SERVER, ServerLedger.Taken.NONE, view.now(), random);
    }

    @Override
    public int other(ClusterView view, SplittableRandom random, ServerPicker picker) {
        refresh(view);
        int s = ledger.pick(ServerLedger.EVERY_SERVER, picker, view.now(), random);
        picker.take(s);
        return s;
    }

    /** Records the job's work per server: one request on each server it uses. Background jobs are not recorded. */
    @Override
    public void placed(JobClass jobClass, int[] servers, ClusterView view) {
        if (jobClass.kind() != JobKind.INFERENCE) {
            return; // not the controller's decision: the next report brings it in
        }
        double[] ops = opsOf.computeIfAbsent(jobClass, LedgerMapping::ops);
        ledger.assignRequest(servers, ops, ops.length, view.now());
    }

    private static double[] ops(JobClass jobClass) {
        double[] ops = new double[jobClass.tasks()];
        for (int t = 0; t < ops.length; t++) {
            ops[t] = jobClass.taskOps(t);
        }
        return ops;
    }

    private void refresh(ClusterView view) {
        int n = view.servers();
        double now = view.now();
        if (ledger == null || ledger.servers() != n) {
            double[] rates = new double[n];
            Arrays.fill(rates, opsPerSecond);
            ledger = new ServerLedger(rates, target);
            ledger.own(shard, shards);
            reportedAt = Double.NEGATIVE_INFINITY;
        }
        if (now - reportedAt >= reportSeconds) {
            for (int s = 0; s < n; s++) {
                ledger.report(s, view.assignedJobs(s), view.assignedWorkSeconds(s), now);
            }
            reportedAt = now;
        }
    }

    @Override
    public String toString() {
        return "ledger(target " + target + ", " + (reportSeconds > 0 ? "reports every " + reportSeconds + " s" : "exact")
                + (shards > 1 ? ", shard " + shard + " of " + shards : "") + ")";
    }
}
