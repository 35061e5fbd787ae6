package dev.nona.sim.policy.theta;

import dev.nona.sim.engine.ClusterView;
import java.util.SplittableRandom;

/**
 * The controller's first server rule: a part goes
 * to a uniformly random server among those with fewer than {@code target} tasks queued or running, and to a
 * uniformly random server when none is under the target; parts of one subgraph go to distinct servers. In the
 * simulator every server holds every model warm, so "warm first" reduces to "under target first". The queue
 * lengths are read as telemetry reports them: a snapshot every {@code reportSeconds} of simulated time (0: exact
 * and instantaneous).
 *
 * <p>This is the controller's rule before it kept a ledger of its own decisions ({@link LedgerMapping} is the
 * rule it runs now): with reports a second apart, every request between two reports goes to the servers that
 * looked free at the last one.
 *
 * <p>Based on the model-aware scheduling thesis (colocation with a target of ongoing requests, 3 by default) and
 * Nona (CloudNet'24), Section III-E, for the uniform fallback. $O(N)$ per pick; not thread-safe.
 */
public final class UnderTargetMapping implements ServerMapping {
    /** The thesis's and the controller's default target of ongoing requests per server. */
    public static final int DEFAULT_TARGET = 3;

    private final int target;
    private final double reportSeconds;
    private int[] reported = new int[0];
    private double reportedAt = Double.NEGATIVE_INFINITY;

    /** The rule reading exact, instantaneous queue lengths. */
    public UnderTargetMapping(int target) {
        this(target, 0);
    }

    /**
     * The rule reading queue lengths as telemetry reports them: a snapshot taken every {@code reportSeconds} of
     * simulated time (the controller's servers report about once a second), not updated by this rule's own
     * choices.
     */
    public UnderTargetMapping(int target, double reportSeconds) {
        if (target < 1) {
            throw new IllegalArgumentException("target ongoing requests (" + target + ") must be >= 1");
        }
        if (!(reportSeconds >= 0) || Double.isInfinite(reportSeconds)) {
            throw new IllegalArgumentException("telemetry report period (" + reportSeconds + " s) must be finite and >= 0");
        }
        this.target = target;
        this.reportSeconds = reportSeconds;
    }

    @Override
    public int first(ClusterView view, SplittableRandom random) {
        int s = pickUnderTarget(view, random, null);
        return s >= 0 ? s : random.nextInt(view.servers());
    }

    @Override
    public int other(ClusterView view, SplittableRandom random, ServerPicker picker) {
        int s = pickUnderTarget(view, random, picker);
        if (s < 0) {
            return picker.pick(random, view.servers());
        }
        picker.take(s);
        return s;
    }

    /** Uniform among servers under the target and not taken by {@code picker}; -1 when there is none. */
    private int pickUnderTarget(ClusterView view, SplittableRandom random, ServerPicker picker) {
        int n = view.servers();
        refresh(view, n);
        int count = 0;
        for (int s = 0; s < n; s++) {
            if (eligible(picker, s)) {
                count++;
            }
        }
        if (count == 0) {
            return -1;
        }
        int k = random.nextInt(count);
        for (int s = 0; s < n; s++) {
            if (eligible(picker, s) && k-- == 0) {
                return s;
            }
        }
        throw new IllegalStateException("BUG: " + count + " eligible servers counted but none found");
    }

    private void refresh(ClusterView view, int n) {
        if (reportSeconds == 0 || reported.length != n || view.now() - reportedAt >= reportSeconds) {
            if (reported.length != n) {
                reported = new int[n];
            }
            for (int s = 0; s < n; s++) {
                reported[s] = view.queueLength(s);
            }
            reportedAt = view.now();
        }
    }

    private boolean eligible(ServerPicker picker, int s) {
        return reported[s] < target && (picker == null || !picker.taken(s));
    }

    @Override
    public String toString() {
        return "under-target(" + target + (reportSeconds > 0 ? ", reports every " + reportSeconds + " s" : "")
                + ")";
    }
}
