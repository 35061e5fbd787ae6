package dev.nona.modelaware;

import dev.nona.check.Checks;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import java.util.random.RandomGenerator;

/**
 * The thesis's two colocation choices over servers numbered {@code 0..servers-1}, the one rule for every scheduler
 * that makes them: the {@link ModelRegistry} and the model-aware simulator's policies (servers by id, in registration
 * order) and the DAG simulator's colocation baselines (servers by index).
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Sections 4.5 ("preferred machines", "other machines") and 4.6 ({@code LocateModelProxy}).
 */
public final class Colocation {
    private Colocation() {}

    /**
     * {@code LocateModelProxy}: among the servers that hold the model, have fewer than {@code target} ongoing
     * requests and that {@code eligible} accepts, the one with the fewest ongoing requests; ties go to the lowest
     * index. The predicates are asked in that order, and only of the servers that passed the ones before.
     *
     * @return the server, or -1 if none qualifies
     */
    public static int locateProxy(int servers, IntPredicate holds, IntUnaryOperator ongoing, int target, IntPredicate eligible) {
        Checks.positive(target, "targetOngoingRequests");
        int best = -1;
        int bestOngoing = Integer.MAX_VALUE;
        for (int s = 0; s < servers; s++) {
            if (!holds.test(s)) {
                continue;
            }
            int o = ongoing.applyAsInt(s);
            if (o < target && eligible.test(s) && o < bestOngoing) {
                best = s;
                bestOngoing = o;
            }
        }
        return best;
    }

    /**
     * The thesis's "other machines" of colocation without queuing: a uniformly random server that {@code eligible}
     * accepts and that does not hold the model (a cold start there); if every eligible server holds it, a uniformly
     * random eligible one. One draw ({@code nextInt(candidates)}) when there is a candidate, none otherwise.
     *
     * @return the server, or -1 if no server is eligible
     */
    public static int elsewhere(int servers, IntPredicate eligible, IntPredicate holds, RandomGenerator random) {
        int eligibleCount = 0;
        int coldCount = 0;
        for (int s = 0; s < servers; s++) {
            if (eligible.test(s)) {
                eligibleCount++;
                if (!holds.test(s)) {
                    coldCount++;
                }
            }
        }
        if (eligibleCount == 0) {
            return -1;
        }
        boolean cold = coldCount > 0;
        int k = random.nextInt(cold ? coldCount : eligibleCount);
        for (int s = 0; s < servers; s++) {
            if (eligible.test(s) && !(cold && holds.test(s)) && k-- == 0) {
                return s;
            }
        }
        throw new IllegalStateException("eligible or holds changed during the choice");
    }
}
