package dev.nona.controller.loop;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.optimize.TableSolver;
import dev.nona.optimize.SolveCancelledException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control loop's one solver thread: runs at most one solve at a time off the task thread. The task thread
 * submits and later polls ({@link #poll()}) from a processing-time timer, so results are handled on the task thread
 * (mailbox-safe) and solving never blocks record processing; the solver thread touches no operator state.
 *
 * <p>Every solve is cancellable: its solver polls a flag that turns true when the task thread {@link #cancel()}s
 * it, when {@link #close()} runs, or when its own wall-clock deadline passes (so a timed-out solve frees the thread
 * even while the task thread is busy). {@link #close()} waits for the thread to end: no solver thread outlives the
 * operator. An {@link Error} thrown by the solver (OutOfMemoryError, StackOverflowError) is not a failed solve: it
 * is rethrown on the task thread by {@link #poll()} and fails the task. Not thread safe: used by the task thread
 * only.
 */
final class SolverThread implements SolveRunner {
    private static final Logger LOG = LoggerFactory.getLogger(SolverThread.class);
    private static final AtomicInteger IDS = new AtomicInteger();
    /** How long {@link #close()} waits for a cancelled solve to return. */
    private static final long CLOSE_WAIT_MILLIS = 10_000;

    /**
     * A finished solve.
     *
     * @param result   the solver's result (a failed one when it threw or was cancelled)
     * @param timedOut whether it stopped because its deadline passed
     */
    record Finished(SolveResult result, boolean timedOut) {}

    /** One submitted solve: its result and its cancellation flag (read by the solver thread). */
    private record Submitted(Future<Finished> future, Cancellation cancellation) {}

    /** The flag a solve polls; also true past the deadline, in wall-clock time (monotonic). */
    private static final class Cancellation {
        private final long deadlineNanos;
        private volatile boolean cancelled;

        Cancellation(long timeoutMillis) {
            this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        }

        boolean stop() {
            return cancelled || System.nanoTime() - deadlineNanos >= 0;
        }
    }

    private final TableSolver solver;
    private final String name;
    private final ExecutorService executor;
    /** The executor's one thread, once started: {@link #close()} joins it. */
    private volatile Thread thread;
    private Submitted inFlight;

    SolverThread(TableSolver solver) {
        this.solver = solver;
        this.name = "nona-solver-" + IDS.incrementAndGet();
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            thread = t;
            return t;
        });
    }

    /** The solver thread's name ({@code nona-solver-N}). */
    String name() {
        return name;
    }

    @Override
    public boolean busy() {
        return inFlight != null;
    }

    /** Starts a solve that stops by itself {@code timeoutMillis} of wall-clock time from now. */
    @Override
    public void submit(SolveInput input, ControllerTable current, long timeoutMillis) {
        if (inFlight != null) {
            throw new IllegalStateException("BUG: a solve is already in flight");
        }
        Cancellation cancellation = new Cancellation(timeoutMillis);
        Future<Finished> future = executor.submit(() -> run(input, current, cancellation, timeoutMillis));
        inFlight = new Submitted(future, cancellation);
    }

    private Finished run(SolveInput input, ControllerTable current, Cancellation cancellation, long timeoutMillis) {
        long t0 = System.nanoTime();
        try {
            return new Finished(solver.solve(input, current, cancellation::stop), false);
        } catch (SolveCancelledException e) {
            return new Finished(SolveResult.failed("solve timed out after " + timeoutMillis + " ms ("
                    + e.getMessage() + ")", (System.nanoTime() - t0) / 1e6), true);
        } catch (RuntimeException e) {
            LOG.warn("Solver {} threw for '{}'", solver.getClass().getSimpleName(), input.cause(), e);
            return new Finished(SolveResult.failed(e, (System.nanoTime() - t0) / 1e6), false);
        }
    }

    /**
     * The solve if it has finished (then the thread is free again), else {@code null}.
     *
     * @throws Error the solver's Error (OutOfMemoryError, StackOverflowError, ...): it fails the task
     */
    @Override
    public Finished poll() throws InterruptedException {
        if (inFlight == null || !inFlight.future().isDone()) {
            return null;
        }
        Future<Finished> done = inFlight.future();
        inFlight = null;
        try {
            return done.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("BUG: the solve task lets only Errors escape", e.getCause());
        } catch (CancellationException e) {
            throw new IllegalStateException("BUG: a polled solve was cancelled", e);
        }
    }

    /** Cancels the running solve (its result is discarded); the thread is free once the solver sees the flag. */
    @Override
    public void cancel() {
        if (inFlight != null) {
            inFlight.cancellation().cancelled = true;
            inFlight.future().cancel(true);
            inFlight = null;
        }
    }

    /**
     * Cancels any solve and waits for the thread to end. The executor's termination alone is not enough: its worker
     * signals termination on its way out, while the thread is still alive, so the thread itself is joined.
     */
    @Override
    public void close() throws InterruptedException {
        cancel();
        executor.shutdownNow();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
        boolean terminated = executor.awaitTermination(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        Thread t = thread;
        if (terminated && t != null) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        if (!terminated || (t != null && t.isAlive())) {
            LOG.error("Solver thread {} did not stop within {} ms of its cancellation: the solver ignores it", name,
                    CLOSE_WAIT_MILLIS);
        }
    }
}
