package dev.nona.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

/** Helpers for a job run on a local MiniCluster by a command (the demo, the latency benchmark). */
public final class LocalJobs {
    private LocalJobs() {}

    /** Cancels the job and waits until it has stopped, so that it does not outlive the broker. */
    public static void stop(JobClient job) throws Exception {
        try {
            job.cancel().get(30, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
        } catch (ExecutionException | IllegalStateException alreadyGone) {
            // the local MiniCluster shuts down with its only job: nothing left to stop
        }
    }

    /** Fails fast, with the job's failure, when the job stopped on its own. */
    public static void checkRunning(JobClient job, String name) {
        JobStatus status;
        try {
            status = job.getJobStatus().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the " + name + " job is gone: " + e.getMessage(), e);
        }
        if (status.isGloballyTerminalState()) {
            String cause;
            try {
                job.getJobExecutionResult().get(5, TimeUnit.SECONDS);
                cause = "no error reported";
            } catch (Exception e) {
                Throwable root = e;
                while (root.getCause() != null) {
                    root = root.getCause();
                }
                cause = root.toString();
            }
            throw new IllegalStateException("the " + name + " job stopped (" + status + "): " + cause);
        }
    }

    /**
     * Waits until {@code done}, polling every {@code pollMillis}, running {@code check} at each poll (it throws to
     * abort) and failing fast when the job stopped; false when {@code timeout} passed first.
     */
    public static boolean await(BooleanSupplier done, Duration timeout, long pollMillis, Runnable check, JobClient job)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long nextCheck = 0;
        while (!done.getAsBoolean()) {
            check.run();
            if (System.nanoTime() > nextCheck) {
                checkRunning(job, "controller");
                nextCheck = System.nanoTime() + 1_000_000_000L;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(pollMillis);
        }
        return true;
    }

    /** Deletes a temporary directory, ignoring failures (the OS cleans it up eventually). */
    public static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (Exception ignored) {
            // a temporary directory: the OS cleans it up eventually
        }
    }
}
