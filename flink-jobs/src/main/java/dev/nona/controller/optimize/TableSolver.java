package dev.nona.controller.optimize;

import java.io.Serializable;

/**
 * Solves a new placement table and predicts how the current one would do at the new rates. Called off the
 * request path, on the control loop's solver thread; implementations need not be thread safe (one thread).
 * Must not throw on a problem it cannot solve: return {@link SolveResult#failed} or an infeasible result.
 */
public interface TableSolver extends Serializable {
    /**
     * @param input   the models, rates and cluster to solve for
     * @param current the published table, or {@code null}
     */
    SolveResult solve(SolveInput input, ControllerTable current);
}
