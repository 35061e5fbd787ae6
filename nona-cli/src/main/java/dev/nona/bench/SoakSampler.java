package dev.nona.bench;

import dev.nona.local.StateDirectory;
import dev.nona.twin.RunningTwin;
import dev.nona.twin.TwinExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The soak's sampler ({@link SoakBenchmark}), on its own thread: at the end of each minute the controller JVM's heap
 * after a full collection it asks for ({@code jcmd PID GC.run}, the pause read from the child's GC log,
 * {@link GcLog}), the newest completed checkpoint's size, the machine's load and the executor twin's backlog; the
 * request index ranges scheduled during each full-collection probe (left out of the percentiles), and one progress
 * line a minute.
 */
final class SoakSampler {
    /** How long the {@code jcmd} of a full collection may take. */
    static final Duration JCMD_TIMEOUT = Duration.ofSeconds(60);
    /** Requests scheduled this long before a full-collection probe are left out of the percentiles with it. */
    static final Duration PROBE_MARGIN = Duration.ofSeconds(1);

    /** What the sampler saw at the end of a minute; the latencies come at the end of the run. */
    record Sample(double heapAfter, String heapFrom, double heapCommitted, double fullGcMillis, int pauses,
            double pauseMillis, double checkpointBytes, String checkpoint, double load, long twinBacklog) {
        /** A minute the sampler did not reach. */
        static final Sample NONE = new Sample(Double.NaN, "none", Double.NaN, Double.NaN, 0, 0, Double.NaN, "",
                Double.NaN, 0);
    }

    private final SoakBenchmark.Settings s;
    private final ControllerChildJvm controller;
    private final Path gcLog;
    private final LatencyRecorder latency;
    private final Consumer<String> progress;
    private final RunningTwin twin;
    private final List<Sample> samples = new ArrayList<>();
    /** Request index ranges {@code [a, b)} scheduled from 1 s before each full-collection probe to its end. */
    private final List<long[]> probes = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** {@link System#nanoTime()} of the first measured request's schedule (about: just before it). */
    volatile long start;
    private int pausesSeen;

    SoakSampler(SoakBenchmark.Settings s, ControllerChildJvm controller, Path gcLog, LatencyRecorder latency,
            Consumer<String> progress, RunningTwin twin) {
        this.s = s;
        this.controller = controller;
        this.gcLog = gcLog;
        this.latency = latency;
        this.progress = progress;
        this.twin = twin;
    }

    void run() {
        try {
            for (int m = 0; m < s.minutes(); m++) {
                long due = start + TimeUnit.SECONDS.toNanos((long) s.intervalSeconds() * (m + 1));
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
                }
                Sample x = sample();
                synchronized (samples) {
                    samples.add(x);
                }
                TwinExecutor.Summary t = twin.summary();
                progress.accept(String.format(Locale.ROOT, "soak: minute %d/%d: sent %d, decided %d, heap after "
                        + "GC %s (%s), checkpoint %s (%s), twin ok %d timeout %d backlog %d, load %.2f", m + 1,
                        s.minutes(), latency.scheduledCount(), latency.decided(), formatBytes(x.heapAfter()),
                        x.heapFrom(), formatBytes(x.checkpointBytes()), x.checkpoint(),
                        t == null ? 0 : t.okOutcomes(), t == null ? 0 : t.timeoutOutcomes(), x.twinBacklog(),
                        x.load()));
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    private Sample sample() throws IOException, InterruptedException {
        long probeStart = System.nanoTime();
        boolean asked = controller.isAlive() && fullGc();
        long probeEnd = System.nanoTime();
        synchronized (samples) {
            probes.add(new long[] {index(probeStart - PROBE_MARGIN.toNanos()), index(probeEnd) + 1});
        }
        List<GcLog.Pause> all = Files.exists(gcLog)
                ? GcLog.pauses(Files.readAllLines(gcLog, StandardCharsets.UTF_8)) : List.of();
        List<GcLog.Pause> fresh = all.subList(Math.min(pausesSeen, all.size()), all.size());
        pausesSeen = all.size();
        GcLog.Pause full = null;
        GcLog.Pause lowest = null;
        int pauses = 0;
        double pauseMillis = 0;
        for (GcLog.Pause p : fresh) {
            if (p.requestedFull()) {
                full = p;
                continue;
            }
            pauses++;
            pauseMillis += p.millis();
            if (lowest == null || p.afterBytes() < lowest.afterBytes()) {
                lowest = p;
            }
        }
        GcLog.Pause heap = asked && full != null ? full : lowest;
        String from = heap == null ? "none" : heap == full ? "full-gc" : "lowest-gc";
        TwinExecutor.Summary t = twin.summary();
        long backlog = Math.max(0, latency.decided() - (t == null ? 0 : t.decisions()));
        StateDirectory.Latest latest = new StateDirectory(controller.stateDir()).latest();
        double cp = latest.checkpoint() == null ? Double.NaN : checkpointBytes(latest.checkpoint());
        return new Sample(heap == null ? Double.NaN : heap.afterBytes(), from,
                heap == null ? Double.NaN : heap.heapBytes(), full == null ? Double.NaN : full.millis(), pauses,
                pauseMillis, cp,
                latest.checkpoint() == null ? "" : latest.checkpoint().getFileName().toString(), loadAverage(),
                backlog);
    }

    /** {@code jcmd PID GC.run}: a full collection, done when it returns; false when it failed. */
    private boolean fullGc() throws InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process p = new ProcessBuilder(jcmd.toString(), String.valueOf(controller.pid()), "GC.run")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(s.workDir().resolve("jcmd.log").toFile()))
                    .start();
            if (!p.waitFor(JCMD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** The request scheduled at {@code nanos} (rounded down; may lie outside the run). */
    private long index(long nanos) {
        return (long) Math.floor((nanos - start) * s.rate() / 1e9);
    }

    List<long[]> probes() {
        synchronized (samples) {
            return List.copyOf(probes);
        }
    }

    List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    void check() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("sampling the controller failed: " + t.getMessage(), t);
        }
    }

    /** The size of a checkpoint: the bytes of every file under its directory; NaN when it is gone. */
    static double checkpointBytes(Path chk) {
        try (Stream<Path> files = Files.walk(chk)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0; // a file removed while walking: a newer checkpoint replaced it
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return Double.NaN;
        }
    }

    /** The 1-minute load average ({@code /proc/loadavg}); NaN where there is none. */
    static double loadAverage() {
        try {
            String line = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII);
            return Double.parseDouble(line.strip().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static String formatBytes(double b) {
        return Double.isNaN(b) ? "n/a" : String.format(Locale.ROOT, "%.1f MiB", b / (1 << 20));
    }
}
