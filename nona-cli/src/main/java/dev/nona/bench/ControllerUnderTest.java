package dev.nona.bench;

import java.time.Duration;
import java.util.Optional;

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

    /** How many times it was started (a restarted process counts again); a job submitted once: 1. */
    default int starts() {
        return 1;
    }

    /** How many of its starts ended by themselves; a job: 1 once it has failed. */
    default int exits() {
        return isAlive() ? 0 : 1;
    }

    /**
     * The first time this is asked after a start of the controller ended by itself (a crash, a failed start): a line
     * saying so for the run's log; otherwise empty.
     */
    default Optional<String> endedByItself() {
        return Optional.empty();
    }

    /** A line for the run's log once it runs (where its own logs are), or empty. */
    default String describe() {
        return "";
    }

    /** Stops it (a kill is enough: the run is over). */
    @Override
    void close();
}
