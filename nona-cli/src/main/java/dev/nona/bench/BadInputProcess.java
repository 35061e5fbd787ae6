package dev.nona.bench;

import dev.nona.local.ChildJvm;
import dev.nona.local.JvmClasspath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link BadInputPublisher} in a JVM of its own, for {@code bench latency --bad-input-rate}. In the benchmark's JVM,
 * which also runs the controller, its producer's buffers for the 300 kB and 5 MB values were a quarter of that
 * JVM's allocation during a burst (a JFR profile, docs/benchmarks.md), and the garbage collections they caused paused
 * the controller too: the benchmark measured its own client. A real malformed burst comes from another process.
 *
 * <p>{@link #start} launches the process, which connects and waits; {@link #go} starts the sending (within a
 * millisecond); {@link #close} stops it (SIGTERM), waits for the broker's answers to what it sent and reads back
 * what it counted. The process dies with this JVM ({@link ChildJvm}'s shutdown hook).
 */
final class BadInputProcess implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final ChildJvm process;
    private final Path goFile;
    private long sent;
    private long acked;
    private long refused;

    private BadInputProcess(ChildJvm process, Path goFile) {
        this.process = process;
        this.goFile = goFile;
    }

    /** Launches the publisher for {@code rate} records per second; it sends nothing before {@link #go}. */
    static BadInputProcess start(String bootstrap, double rate, Path workDir) {
        return start(bootstrap, rate, 0, workDir);
    }

    /** {@link #start(String, double, Path)}, sending at most {@code limit} records (0: until closed). */
    static BadInputProcess start(String bootstrap, double rate, long limit, Path workDir) {
        Path log = workDir.resolve("bad-input.log");
        Path go = workDir.resolve("bad-input.go");
        ChildJvm child = ChildJvm.start("bad-input", List.of("-Xmx512m", ChildJvm.PROJECT_LOGGING), JvmClasspath.current(),
                BadInputPublisher.class.getName(), List.of(bootstrap, String.format(Locale.ROOT, "%s", rate),
                        go.toString(), Long.toString(limit)), log);
        return new BadInputProcess(child, go);
    }

    /** Waits until the publisher is connected, then lets it send. */
    void go() throws IOException {
        awaitReady();
        Files.createFile(goFile);
    }

    /** Waits until the publisher is connected (then {@link #go} starts it within a millisecond). */
    void awaitReady() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!process.logTail(1 << 16).contains(BadInputPublisher.READY)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the bad-input publisher did not get ready: " + process.logTail(2000));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /**
     * Waits until a publisher with a limit has sent it all and had the broker's answers (at most {@code timeout});
     * returns the milliseconds it took from its first send, or -1 if it did not finish in time.
     */
    long awaitDone(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            long[] done = lastLine(process.logTail(1 << 16), BadInputPublisher.DONE, 2);
            if (done != null) {
                return done[1];
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return -1;
    }

    /** Stops the publisher and reads what it counted. */
    @Override
    public void close() {
        process.stop(STOP_GRACE);
        long[] counts = parseCounts(process.logTail(1 << 16));
        sent = counts[0];
        acked = counts[1];
        refused = counts[2];
    }

    /** The sent, acked and refused counts of the publisher's last {@link BadInputPublisher#COUNTS} line in {@code log}. */
    static long[] parseCounts(String log) {
        long[] counts = lastLine(log, BadInputPublisher.COUNTS, 3);
        if (counts == null) {
            throw new IllegalStateException("the bad-input publisher did not report its counts: "
                    + log.substring(Math.max(0, log.length() - 2000)));
        }
        return counts;
    }

    /**
     * The {@code n} numbers after {@code prefix} on the last complete line of {@code log} that starts with it; null
     * when there is none yet.
     *
     * @throws IllegalStateException if that line does not hold {@code n} numbers
     */
    static long[] lastLine(String log, String prefix, int n) {
        int at = log.lastIndexOf(prefix);
        int end = at < 0 ? -1 : log.indexOf('\n', at);
        if (end < 0) {
            return null;
        }
        String line = log.substring(at, end);
        String[] parts = line.substring(prefix.length()).strip().split("\\s+");
        try {
            long[] out = new long[n];
            for (int k = 0; k < n; k++) {
                out[k] = Long.parseLong(parts[k]);
            }
            return out;
        } catch (RuntimeException e) {
            throw new IllegalStateException("unreadable line of the bad-input publisher: " + line, e);
        }
    }

    long sent() {
        return sent;
    }

    long acked() {
        return acked;
    }

    long refused() {
        return refused;
    }
}
