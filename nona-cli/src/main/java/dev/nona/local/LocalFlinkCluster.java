package dev.nona.local;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real multi-process Flink session cluster without the Flink distribution: one JobManager ({@code
 * StandaloneSessionClusterEntrypoint}) and N TaskManagers ({@code TaskManagerRunner}), each its own JVM,
 * started from Flink's own jars: by default those on this JVM's classpath with the application's removed
 * ({@link #isFlinkSide}), or exactly the list given to {@link Builder#classpath} (the integration tests pass
 * the classpath of Flink's artifacts alone). A job brings its own code in its shaded jar, as on a real cluster.
 *
 * <p>What the distribution's shell scripts do is done here: {@code conf/config.yaml} is written, the memory
 * and CPU options are derived as {@code BashJavaUtils GET_JM_RESOURCE_PARAMS/GET_TM_RESOURCE_PARAMS} derives
 * them ({@code JobManagerProcessUtils}, {@code TaskExecutorProcessUtils}) and passed as JVM flags and {@code
 * -D} dynamic properties, together with the distribution's Java 17 {@code --add-opens} list. Jobs are
 * submitted over REST ({@code /jars/upload}, {@code /jars/<id>/run}), so the JobManager builds the job graph
 * from the jar alone. {@link #killTaskManager(int)} is a {@code kill -9}. Not thread safe: drive it from one
 * thread.
 */
public final class LocalFlinkCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalFlinkCluster.class);
    private static final String JM_MAIN = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String TM_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

    private final Path workDir;
    private final boolean ownsWorkDir;
    private final int restPort;
    private final int rpcPort;
    private final int initialTaskManagers;
    private final FlinkClusterConfig config;
    private final JvmClasspath classpath;
    private final Duration startTimeout;
    private ChildJvm jobManager;
    private final List<ChildJvm> taskManagers = new ArrayList<>();
    private final FlinkRest rest;

    private LocalFlinkCluster(Builder b) throws IOException {
        this.ownsWorkDir = b.workDir == null;
        this.workDir = ownsWorkDir ? Files.createTempDirectory("nona-flink-") : b.workDir.toAbsolutePath();
        this.restPort = FreePorts.next();
        this.rpcPort = FreePorts.next();
        this.initialTaskManagers = b.taskManagers;
        this.classpath = b.classpath != null ? b.classpath : JvmClasspath.current().filter(LocalFlinkCluster::isFlinkSide);
        this.startTimeout = b.startTimeout;
        this.config = new FlinkClusterConfig(workDir, rpcPort, restPort, b.slotsPerTaskManager, b.taskManagerMemory,
                b.jobManagerMemory, b.overrides);
        this.rest = new FlinkRest(URI.create("http://127.0.0.1:" + restPort));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** True for classpath entries a Flink cluster has on its own: not our modules, not the Kafka connector. */
    static boolean isFlinkSide(Path entry) {
        String s = entry.toString().replace(File.separatorChar, '/');
        String name = entry.getFileName().toString();
        return !Files.isDirectory(entry)
                && !s.contains("/dev/nona/")
                && !name.startsWith("flink-jobs-") && !name.startsWith("policy-model-") && !name.startsWith("nona-cli-")
                && !name.startsWith("simulator-") && !name.startsWith("kafka-topics-")
                && !name.startsWith("flink-connector-kafka-")
                && !name.startsWith("kafka-") && !name.startsWith("kafka_2.13-");
    }

    /** Starts the JobManager and the TaskManagers, and waits until all TaskManagers are registered. */
    public LocalFlinkCluster start() {
        config.write();
        long t0 = System.nanoTime();
        Path log = workDir.resolve("log/jobmanager.log");
        FlinkProcessOptions.Options jm = FlinkProcessOptions.jobManager(config.asConfiguration(), confDir(), log);
        jobManager = ChildJvm.start("flink-jobmanager", jm.jvm(), classpath, JM_MAIN, jm.args(), log);
        for (int i = 0; i < initialTaskManagers; i++) {
            taskManagers.add(launchTaskManager(i));
        }
        await("JobManager and " + initialTaskManagers + " TaskManagers", () -> rest.taskManagers() == initialTaskManagers);
        LOG.info("Flink cluster up at {} in {} ms: JobManager pid {}, TaskManager pids {}", rest.base(),
                (System.nanoTime() - t0) / 1_000_000, jobManager.pid(), taskManagers.stream().map(ChildJvm::pid).toList());
        return this;
    }

    /**
     * Submits a job jar as a user does over REST: uploads it ({@code /jars/upload}) and runs its entry class on
     * the JobManager ({@code /jars/<id>/run}); returns the job id. Nothing of this JVM's classpath takes part,
     * so a class missing from the jar fails the submission (or the job), as it would on a real cluster.
     */
    public JobID submit(Path jobJar, String entryClass, int parallelism, String... args) {
        Objects.requireNonNull(entryClass, "entry class");
        if (!Files.isRegularFile(jobJar)) {
            throw new IllegalArgumentException("job jar (" + jobJar + ") does not exist; build with mvn -B package");
        }
        String jarId = rest.uploadJar(jobJar);
        JobID id = JobID.fromHexString(rest.runJar(jarId, entryClass, parallelism, List.of(args)));
        LOG.info("submitted {} ({}, uploaded as {}) as job {}", entryClass, jobJar.getFileName(), jarId, id);
        return id;
    }

    /**
     * Runs Flink's own command line ({@code CliFrontend}, what {@code bin/flink} runs) against this cluster, in
     * a child JVM with the cluster's classpath and {@code conf/}; e.g. {@code run -d -m host:port -c Main jar}.
     * Returns the command's output; fails on a non-zero exit.
     */
    public String runFlinkCli(List<String> args, Duration timeout) {
        Path log = workDir.resolve("log/flink-cli-" + System.nanoTime() + ".log");
        ChildJvm.run("flink-cli", FlinkProcessOptions.client(confDir()), classpath, "org.apache.flink.client.cli.CliFrontend", args, log, workDir, timeout);
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
    }

    /** The REST address, {@code 127.0.0.1:<port>} (what {@code flink run -m} takes). */
    public String restAddress() {
        return "127.0.0.1:" + restPort;
    }

    /** Waits until the job and all its tasks run (e.g. after a submission or a failover). */
    public void awaitRunning(JobID job, Duration timeout) {
        awaitUntil("job " + job + " running", () -> rest.allTasksRunning(job.toHexString()), timeout);
    }

    /** Cancels the job and waits until it is no longer running. */
    public void cancel(JobID job) {
        try (RestClusterClient<StandaloneClusterId> client =
                new RestClusterClient<>(clientConfig(), StandaloneClusterId.getInstance())) {
            client.cancel(job).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot cancel job " + job, e);
        }
        awaitUntil("job " + job + " cancelled",
                () -> rest.jobState(job.toHexString()).map(s -> !"RUNNING".equals(s) && !"CANCELLING".equals(s))
                        .orElse(false), Duration.ofSeconds(60));
    }

    /** {@code kill -9} of TaskManager {@code index} (0-based, in start order). */
    public void killTaskManager(int index) {
        ChildJvm tm = taskManagers.get(index);
        LOG.info("kill -9 TaskManager {} (pid {})", index, tm.pid());
        tm.kill();
    }

    /**
     * {@code kill -9} of a TaskManager that runs at least one of the job's tasks, and returns its index. Which
     * TaskManager gets a job's slots is the scheduler's choice: with two TaskManagers of two slots and a job of
     * parallelism 2, both slots may come from one of them, and killing the other one restarts nothing.
     */
    public int killTaskManagerRunning(JobID job) {
        Set<String> running = rest.taskManagersRunning(job.toHexString());
        for (int i = 0; i < taskManagers.size(); i++) {
            if (taskManagers.get(i).isAlive() && running.contains(resourceId(i))) {
                LOG.info("job {} runs on TaskManagers {}", job, running);
                killTaskManager(i);
                return i;
            }
        }
        throw new IllegalStateException("no live TaskManager of " + taskManagers.size() + " runs a task of job " + job
                + " (its tasks run on " + running + ")");
    }

    /** The resource id TaskManager {@code index} registers with, as Flink's REST API reports it. */
    static String resourceId(int index) {
        return "tm-" + index;
    }

    /** Starts one more TaskManager (e.g. to replace a killed one) and waits until it registers. */
    public void addTaskManager() {
        int alive = (int) taskManagers.stream().filter(ChildJvm::isAlive).count();
        taskManagers.add(launchTaskManager(taskManagers.size()));
        await("TaskManager registration", () -> rest.taskManagers() >= alive + 1);
    }

    public List<Long> taskManagerPids() {
        return taskManagers.stream().filter(ChildJvm::isAlive).map(ChildJvm::pid).toList();
    }

    public FlinkRest rest() {
        return rest;
    }

    public Path workDir() {
        return workDir;
    }

    /** Stops every process (SIGTERM) and deletes the work directory if this object created it. */
    @Override
    public void close() {
        for (ChildJvm tm : taskManagers) {
            tm.stop(Duration.ofSeconds(10));
        }
        if (jobManager != null) {
            jobManager.stop(Duration.ofSeconds(15));
        }
        if (ownsWorkDir) {
            LocalKafkaBroker.deleteRecursively(workDir);
        }
    }

    private ChildJvm launchTaskManager(int index) {
        Path log = workDir.resolve("log/taskmanager-" + index + ".log");
        FlinkProcessOptions.Options tm = FlinkProcessOptions.taskManager(config.asConfiguration(), confDir(), log);
        List<String> args = new ArrayList<>(tm.args());
        args.addAll(List.of("-D", "taskmanager.resource-id=" + resourceId(index)));
        return ChildJvm.start("flink-taskmanager-" + index, tm.jvm(), classpath, TM_MAIN, args, log);
    }

    private Configuration clientConfig() {
        Configuration conf = new Configuration();
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, restPort);
        conf.set(JobManagerOptions.ADDRESS, "127.0.0.1");
        return conf;
    }

    private Path confDir() {
        return config.confDir();
    }

    private void await(String what, BooleanSupplier done) {
        awaitUntil(what, done, startTimeout);
    }

    private void awaitUntil(String what, BooleanSupplier done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (jobManager != null && !jobManager.isAlive()) {
                throw new IllegalStateException("Flink JobManager exited: " + jobManager.logTail(3000));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + timeout + " waiting for " + what + "; logs in "
                        + workDir.resolve("log"));
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what, e);
            }
        }
    }

    /** Options; every one has a working default (sized for a 2-core CI machine). */
    public static final class Builder {
        private Path workDir;
        private int taskManagers = 2;
        private int slotsPerTaskManager = 2;
        private String taskManagerMemory = "1024m";
        private String jobManagerMemory = "768m";
        private JvmClasspath classpath;
        private Duration startTimeout = Duration.ofSeconds(120);
        private final Map<String, String> overrides = new LinkedHashMap<>();

        private Builder() {}

        public Builder workDir(Path dir) {
            this.workDir = Objects.requireNonNull(dir, "work dir");
            return this;
        }

        public Builder taskManagers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("task managers (" + n + ") must be >= 1");
            }
            this.taskManagers = n;
            return this;
        }

        public Builder slotsPerTaskManager(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("slots per task manager (" + n + ") must be >= 1");
            }
            this.slotsPerTaskManager = n;
            return this;
        }

        public Builder taskManagerMemory(String size) {
            this.taskManagerMemory = Objects.requireNonNull(size, "task manager memory");
            return this;
        }

        public Builder jobManagerMemory(String size) {
            this.jobManagerMemory = Objects.requireNonNull(size, "job manager memory");
            return this;
        }

        public Builder classpath(JvmClasspath cp) {
            this.classpath = Objects.requireNonNull(cp, "classpath");
            return this;
        }

        /** A {@code config.yaml} entry that replaces the default. */
        public Builder config(String key, String value) {
            overrides.put(Objects.requireNonNull(key, "config key"), Objects.requireNonNull(value, key));
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = Objects.requireNonNull(timeout, "start timeout");
            return this;
        }

        public LocalFlinkCluster build() {
            try {
                return new LocalFlinkCluster(this);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the cluster's work directory", e);
            }
        }
    }
}
