package dev.nona.optimize;

/**
 * Thrown by {@link NonaOptimizer#solve(NonaProblem, NonaOptimizer.Options, java.util.function.BooleanSupplier)} when
 * its stop condition (a deadline or a cancellation) became true before the search finished. The solve leaves no
 * state behind; the caller decides whether to retry.
 */
public final class SolveCancelledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param iterations how many linear programs the search had solved when it stopped */
    public SolveCancelledException(int iterations) {
        super("solve cancelled after " + iterations + " iterations");
    }
}
