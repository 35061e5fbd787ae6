package dev.nona.controller.loop;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.SolveInput;

/**
 * Runs one solve at a time off the task thread ({@link SolverThread}); the task thread submits and later polls.
 * Not thread safe: used by the task thread only.
 */
interface SolveRunner extends AutoCloseable {
    /** Whether a solve was submitted and has not been polled finished or cancelled. */
    boolean busy();

    /** Starts a solve that stops by itself {@code timeoutMillis} of wall-clock time from now. */
    void submit(SolveInput input, ControllerTable current, long timeoutMillis);

    /** The solve if it has finished (then the runner is free again), else {@code null}. */
    SolverThread.Finished poll() throws InterruptedException;

    /** Cancels the running solve (its result is discarded). */
    void cancel();

    /** Cancels any solve and waits for the thread to end. */
    @Override
    void close() throws InterruptedException;
}
