package dev.nona.controller.loop;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.optimize.TableSolver;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The control loop's one solver thread: runs at most one solve at a time off the task thread. The task thread
 * submits and later polls ({@link #poll()}) from a processing-time timer, so results are emitted from the task
 * thread (mailbox-safe) and solving never blocks record processing. Not thread safe: used by the task thread only.
 */
final class SolverThread implements AutoCloseable {
    private final TableSolver solver;
    private final ExecutorService executor;
    private Future<SolveResult> inFlight;
    private long startedAt;

    SolverThread(TableSolver solver) {
        this.solver = solver;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "nona-solver");
            t.setDaemon(true);
            return t;
        });
    }

    boolean busy() {
        return inFlight != null;
    }

    void submit(SolveInput input, ControllerTable current, long now) {
        if (inFlight != null) {
            throw new IllegalStateException("BUG: a solve is already in flight");
        }
        startedAt = now;
        inFlight = executor.submit(() -> {
            long t0 = System.nanoTime();
            try {
                return solver.solve(input, current);
            } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                return SolveResult.failed("solver failed: " + e, (System.nanoTime() - t0) / 1e6);
            }
        });
    }

    /** The result if the solve has finished (then the thread is free again), else {@code null}. */
    SolveResult poll() throws InterruptedException {
        if (inFlight == null || !inFlight.isDone()) {
            return null;
        }
        try {
            return inFlight.get();
        } catch (java.util.concurrent.ExecutionException e) {
            return SolveResult.failed("solver failed: " + e.getCause(), 0);
        } catch (java.util.concurrent.CancellationException e) {
            return SolveResult.failed("solve cancelled", 0);
        } finally {
            inFlight = null;
        }
    }

    /** Abandons the running solve if it has run longer than {@code timeoutMillis}; true if it did. */
    boolean abandonIfOlderThan(long now, long timeoutMillis) {
        if (inFlight != null && now - startedAt >= timeoutMillis) {
            inFlight.cancel(true);
            inFlight = null;
            return true;
        }
        return false;
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }
}
