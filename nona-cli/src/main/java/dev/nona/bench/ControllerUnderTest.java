package dev.nona.bench;

import java.time.Duration;

/**
 * The controller a recovery run measures: {@code bin/nona run} as a child process ({@link ControllerChildJvm}), or
 * the controller job on a multi-process Flink cluster ({@link ControllerOnCluster}).
 */
public interface ControllerUnderTest extends AutoCloseable {
    /** Starts the controller (it then reads its sources from the latest offsets, as the bench configures it). */
    void start();

    /** False once the controller can no longer recover (its process exited, its job failed or was cancelled). */
    boolean isAlive();

    /** The end of its log, for error messages. */
    String logTail(int maxChars);

    /** Waits until it has completed a checkpoint (a restart then has one to resume from). */
    void awaitCheckpoint(Duration timeout) throws InterruptedException;

    /** Stops it (a kill is enough: the run is over). */
    @Override
    void close();
}
