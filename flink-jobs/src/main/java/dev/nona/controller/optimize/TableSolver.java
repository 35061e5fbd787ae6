package dev.nona.controller.optimize;

import java.io.Serializable;
import java.util.function.BooleanSupplier;

/**
 * Solves a new placement table and predicts how the current one would do at the new rates. Called off the
 * request path, on the control loop's solver thread; implementations need not be thread safe (one thread).
 * Must not throw on a problem it cannot solve: return {@link SolveResult#failed} or an infeasible result. Must poll
 * {@code cancelled} often (at least every few milliseconds of work) and stop once it is true, by throwing
 * {@link dev.nona.optimize.SolveCancelledException}: the control loop cancels a solve at its timeout and when it
 * closes, and no solver thread may outlive it.
 */
public interface TableSolver extends Serializable {
    /**
     * @param input     the models, rates and cluster to solve for
     * @param current   the published table, or {@code null}
     * @param cancelled true once the solve should stop (its deadline passed or the operator closes)
     */
    SolveResult solve(SolveInput input, ControllerTable current, BooleanSupplier cancelled);

    /** Solves without a deadline. */
    default SolveResult solve(SolveInput input, ControllerTable current) {
        return solve(input, current, () -> false);
    }
}
