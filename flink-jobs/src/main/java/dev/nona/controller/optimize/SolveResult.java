package dev.nona.controller.optimize;

import java.util.Map;
import java.util.TreeMap;

/**
 * The outcome of one re-optimisation, with what the safe hot-swap needs: the candidate's and the current
 * table's predicted objective at the new rates.
 *
 * @param error               why solving failed, or {@code null}
 * @param feasible            whether the candidate keeps the link stable ($\rho < 1$)
 * @param tableJson           the candidate table (policy-model JSON), {@code null} when infeasible or failed
 * @param objective           candidate $\sum_j \beta_j \tau_j$ at the new rates (NaN when infeasible)
 * @param linkLoad            candidate $\rho$ (the smallest reachable when infeasible)
 * @param linkWaitSeconds     candidate $\phi$ (NaN when infeasible)
 * @param predictedJctSeconds candidate $\tau_j$ per model (copied)
 * @param solveMillis         optimiser wall time
 * @param iterations          optimiser iterations
 * @param currentObjective    the current table's objective at the new rates; NaN when there is no current table,
 *                            it is the fallback, or it does not cover the same models
 * @param currentFeasible     whether the current table keeps $\rho < 1$ at the new rates (false when NaN above)
 * @param diagnostic          what the optimiser said of the candidate ({@code Solution#diagnostic}: "" when nothing,
 *                            e.g. models that fit whole only on a few servers, and not all at once); never null
 */
public record SolveResult(String error, boolean feasible, String tableJson, double objective, double linkLoad,
        double linkWaitSeconds, Map<String, Double> predictedJctSeconds, double solveMillis, long iterations,
        double currentObjective, boolean currentFeasible, String diagnostic) {
    public SolveResult {
        predictedJctSeconds = new TreeMap<>(predictedJctSeconds);
        diagnostic = diagnostic == null ? "" : diagnostic;
        if (error == null && feasible && tableJson == null) {
            throw new IllegalArgumentException("BUG: a feasible result needs its tableJson");
        }
    }

    /** Longest error text kept: the cause chain of a deep failure is cut here. */
    static final int MAX_ERROR_CHARS = 1000;

    /**
     * A failed solve, keeping the failure's type and its causes (not only {@link Throwable#getMessage()}, which is
     * {@code null} for e.g. a NullPointerException): {@code java.lang.IllegalStateException: x; caused by ...}.
     */
    public static SolveResult failed(Throwable failure, double solveMillis) {
        StringBuilder text = new StringBuilder();
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 5; t = t.getCause() == t ? null : t.getCause(), depth++) {
            text.append(depth == 0 ? "" : "; caused by ").append(t.getClass().getName());
            if (t.getMessage() != null) {
                text.append(": ").append(t.getMessage().replace('\n', ' '));
            }
        }
        String error = text.length() > MAX_ERROR_CHARS ? text.substring(0, MAX_ERROR_CHARS) + "..." : text.toString();
        return failed(error, solveMillis);
    }

    public static SolveResult failed(String error, double solveMillis) {
        return new SolveResult(error, false, null, Double.NaN, Double.NaN, Double.NaN, Map.of(), solveMillis, 0,
                Double.NaN, false, "");
    }
}
