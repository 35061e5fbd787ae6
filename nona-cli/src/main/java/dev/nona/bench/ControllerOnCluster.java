package dev.nona.bench;

import dev.nona.local.FlinkHighAvailability;
import dev.nona.local.LocalFlinkCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;

/**
 * The controller job on a multi-process Flink session cluster ({@link LocalFlinkCluster}: a JobManager and
 * {@link #TASK_MANAGERS} TaskManagers of {@link #SLOTS} slots, each its own JVM, on Flink's own jars): its shaded jar
 * submitted over REST with {@code dev.nona.controller.ControllerMain --config <file>}, as on a real cluster. A
 * TaskManager killed with {@code kill -9} ({@link TaskManagerKill}) leaves a spare one with free slots, on which Flink
 * restarts the job from its latest checkpoint (the cluster's restart strategy and heartbeats: FlinkClusterConfig).
 * With {@link #highAvailability} the cluster has a leading and a standby JobManager on ZooKeeper (the chaos run's
 * JobManager kill).
 */
public final class ControllerOnCluster implements ControllerUnderTest {
    static final String ENTRY = "dev.nona.controller.ControllerMain";
    public static final int TASK_MANAGERS = 2;
    static final int SLOTS = 2;
    /** How long the cluster may take to start: over 2 minutes on the shared 2-core machine at load 60. */
    static final Duration START_TIMEOUT = Duration.ofMinutes(5);

    private final String bootstrap;
    private final Map<String, String> controller;
    private final Path workDir;
    private final Path jobJar;
    private FlinkHighAvailability highAvailability;
    private LocalFlinkCluster cluster;
    private JobID job;

    /**
     * @param controller the controller's settings ({@code docs/controller.md}); {@code bootstrap.servers} is added
     * @param workDir    the cluster's directory (configuration, logs, checkpoints) and the settings file
     * @param jobJar     the controller's shaded job jar ({@link #findJobJar})
     */
    public ControllerOnCluster(String bootstrap, Map<String, String> controller, Path workDir, Path jobJar) {
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
        this.controller = Map.copyOf(controller);
        this.workDir = Objects.requireNonNull(workDir, "working directory");
        this.jobJar = Objects.requireNonNull(jobJar, "job jar");
        if (!Files.isRegularFile(jobJar)) {
            throw new IllegalArgumentException("--job-jar (" + jobJar + ") does not exist; build it with mvn -B "
                    + "-DskipTests package");
        }
    }

    /**
     * The job jar the build makes, {@code flink-jobs/target/flink-jobs-*-job.jar}, looked for above the working
     * directory and above this class's own jar or classes.
     */
    public static Optional<Path> findJobJar() {
        for (Path start : new Path[] {Path.of("").toAbsolutePath(), codeLocation()}) {
            for (Path dir = start; dir != null; dir = dir.getParent()) {
                Path target = dir.resolve("flink-jobs/target");
                if (Files.isDirectory(target)) {
                    try (Stream<Path> files = Files.list(target)) {
                        Optional<Path> jar = files.filter(p -> p.getFileName().toString()
                                .matches("flink-jobs-.*-job\\.jar")).findFirst();
                        if (jar.isPresent()) {
                            return jar;
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static Path codeLocation() {
        try {
            return Path.of(ControllerOnCluster.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toAbsolutePath();
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * Runs the cluster with ZooKeeper high availability ({@code ha}) and two JobManagers, a leader and a standby
     * (before {@link #start()}).
     */
    public ControllerOnCluster highAvailability(FlinkHighAvailability ha) {
        this.highAvailability = Objects.requireNonNull(ha, "high availability");
        return this;
    }

    /** Starts the cluster, submits the job and waits until all its tasks run. */
    @Override
    public void start() {
        LocalFlinkCluster.Builder b = LocalFlinkCluster.builder().workDir(workDir.resolve("flink"))
                .taskManagers(TASK_MANAGERS).slotsPerTaskManager(SLOTS).startTimeout(START_TIMEOUT);
        if (highAvailability != null) {
            b.jobManagers(2).highAvailability(highAvailability);
        }
        cluster = b.build().start();
        Map<String, String> settings = new TreeMap<>(controller);
        settings.put("bootstrap.servers", bootstrap);
        // the job on both TaskManagers: a restart after one is lost runs where its code is loaded already
        settings.putIfAbsent("control.slot-sharing-group", "control");
        StringBuilder text = new StringBuilder();
        settings.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Path file = workDir.resolve("controller.properties");
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        int parallelism = Integer.parseInt(settings.getOrDefault("parallelism", "1"));
        job = cluster.submit(jobJar, ENTRY, parallelism, "--config", file.toString());
        cluster.awaitRunning(job, Duration.ofSeconds(180));
    }

    @Override
    public String describe() {
        return "controller job " + job + " runs; Flink logs in " + cluster.workDir().resolve("log");
    }

    public LocalFlinkCluster cluster() {
        return cluster;
    }

    public JobID job() {
        return job;
    }

    @Override
    public boolean isAlive() {
        if (job == null) {
            return false;
        }
        return cluster.rest().jobState(job.toHexString())
                .map(s -> !s.equals("FAILED") && !s.equals("CANCELED") && !s.equals("FINISHED")).orElse(true);
    }

    @Override
    public String logTail(int maxChars) {
        Path log = cluster == null ? null : cluster.workDir().resolve(highAvailability == null
                ? "log/jobmanager.log" : "log/jobmanager-" + cluster.leaderJobManager().orElse(0) + ".log");
        try {
            if (log == null || !Files.exists(log)) {
                return "(no JobManager log)";
            }
            String all = Files.readString(log, StandardCharsets.UTF_8);
            return all.substring(Math.max(0, all.length() - maxChars));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    @Override
    public void awaitCheckpoint(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (cluster.rest().completedCheckpoints(job.toHexString()) < 1) {
            if (System.nanoTime() > deadline || !isAlive()) {
                throw new IllegalStateException("no completed checkpoint of job " + job + " within " + timeout + ": "
                        + logTail(4000));
            }
            Thread.sleep(200);
        }
    }

    @Override
    public void close() {
        if (cluster != null) {
            try {
                if (job != null && isAlive()) {
                    cluster.cancel(job);
                }
            } catch (RuntimeException e) {
                // the cluster is closed anyway
            }
            cluster.close();
        }
    }
}
