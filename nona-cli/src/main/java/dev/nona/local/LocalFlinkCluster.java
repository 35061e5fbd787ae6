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
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
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
 * StandaloneSessionClusterEntrypoint}), or with ZooKeeper high availability a leader and standbys ({@link
 * Builder#highAvailability}, {@link Builder#jobManagers}), and N TaskManagers ({@code TaskManagerRunner}), each its own JVM,
 * started from Flink's own jars: by default those on this JVM's classpath with the application's removed
 * ({@link #isFlinkSide}), or exactly the list given to {@link Builder#classpath} (the integration tests pass
 * the classpath of Flink's artifacts alone). A job brings its own code in its shaded jar, as on a real cluster.
 *
 * <p>What the distribution's shell scripts do is done here: {@code conf/config.yaml} is written, the memory
 * and CPU options are derived as {@code BashJavaUtils GET_JM_RESOURCE_PARAMS/GET_TM_RESOURCE_PARAMS} derives
 * them ({@code JobManagerProcessUtils}, {@code TaskExecutorProcessUtils}) and passed as JVM flags and {@code
 * -D} dynamic properties, together with the distribution's Java 17 {@code --add-opens} list. Jobs are
 * submitted over REST ({@code /jars/upload}, {@code /jars/<id>/run}), so the JobManager builds the job graph
 * from the jar alone. {@link #killTaskManager(int)} is a {@code kill -9}.
 *
 * <p>With high availability, each JobManager has its own RPC and REST port ({@code -D} dynamic properties, as
 * the distribution's {@code masters} file gives each its web port), the leader is the one ZooKeeper names
 * ({@link #leaderJobManager()}), {@link #rest()} and {@link #restAddress()} follow the leader across a failover,
 * {@link #killLeaderJobManager()} is a {@code kill -9} of the leader and {@link #restartJobManager(int)} brings a
 * killed one back as a standby. Not thread safe: drive it from one thread.
 */
public final class LocalFlinkCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalFlinkCluster.class);
    private static final String JM_MAIN = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String TM_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

    private final Path workDir;
    private final boolean ownsWorkDir;
    private final int initialTaskManagers;
    private final FlinkClusterConfig config;
    private final FlinkHighAvailability highAvailability;
    private final JvmClasspath classpath;
    /** Launches of a JobManager while the cluster starts, before its failures fail the start. */
    static final int JOBMANAGER_START_ATTEMPTS = 3;
    /** What a JobManager's log says when its REST port was taken (Flink's {@code RestServerEndpoint#start}). */
    private static final String REST_PORT_TAKEN = "Could not start rest endpoint";
    /** How much of a JobManager's log end is searched for why it exited. */
    private static final int LOG_TAIL_FOR_CAUSE = 20_000;
    private final Duration startTimeout;
    private final List<JobManager> jobManagers = new ArrayList<>();
    private final List<ChildJvm> taskManagers = new ArrayList<>();
    private ZooKeeperLeaderLookup leaders;

    private LocalFlinkCluster(Builder b) throws IOException {
        if (b.jobManagers > 1 && b.highAvailability == null) {
            throw new IllegalArgumentException("job managers (" + b.jobManagers + ") > 1 need high availability: "
                    + "set Builder.highAvailability");
        }
        this.ownsWorkDir = b.workDir == null;
        this.workDir = ownsWorkDir ? Files.createTempDirectory("nona-flink-") : b.workDir.toAbsolutePath();
        int[] ports = FreePorts.distinct(2 * b.jobManagers);
        if (b.firstRestPort > 0) {
            ports[1] = b.firstRestPort;
        }
        for (int i = 0; i < b.jobManagers; i++) {
            jobManagers.add(new JobManager(i, ports[2 * i], ports[2 * i + 1]));
        }
        this.initialTaskManagers = b.taskManagers;
        this.classpath = b.classpath != null ? b.classpath : JvmClasspath.current().filter(LocalFlinkCluster::isFlinkSide);
        this.startTimeout = b.startTimeout;
        this.highAvailability = b.highAvailability;
        Map<String, String> settings = new LinkedHashMap<>();
        if (highAvailability != null) {
            settings.putAll(highAvailability.settings(workDir));
        }
        settings.putAll(b.overrides);
        JobManager first = jobManagers.get(0);
        this.config = new FlinkClusterConfig(workDir, first.rpcPort, first.restPort, b.slotsPerTaskManager,
                b.taskManagerMemory, b.jobManagerMemory, settings);
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
                && !name.startsWith("kafka-") && !name.startsWith("kafka_2.13-")
                // the ZooKeeper server's jars (LocalZooKeeper): Flink's processes use Flink's shaded client
                && !name.startsWith("zookeeper-") && !name.startsWith("netty-")
                && !name.startsWith("audience-annotations-");
    }

    /**
     * Starts the JobManager(s) and the TaskManagers, and waits until all TaskManagers are registered (with high
     * availability: with the elected leader).
     */
    public LocalFlinkCluster start() {
        try {
            return startProcesses();
        } catch (RuntimeException e) {
            stopProcesses(); // the work directory stays, with the logs the exception points at
            throw e;
        }
    }

    private LocalFlinkCluster startProcesses() {
        config.write();
        if (highAvailability != null) {
            config.writeMasters(jobManagers.stream().map(jm -> "127.0.0.1:" + jm.restPort).toList());
            leaders = new ZooKeeperLeaderLookup(config.asConfiguration());
        }
        long t0 = System.nanoTime();
        for (JobManager jm : jobManagers) {
            launchJobManager(jm);
        }
        for (int i = 0; i < initialTaskManagers; i++) {
            taskManagers.add(launchTaskManager(i));
        }
        awaitStart("JobManager and " + initialTaskManagers + " TaskManagers",
                () -> rest().taskManagers() == initialTaskManagers);
        if (jobManagers.size() > 1) {
            awaitStart("every JobManager's REST endpoint", () -> jobManagers.stream().allMatch(this::answers));
        }
        LOG.info("Flink cluster up at {} in {} ms: JobManager pids {}{}, TaskManager pids {}", rest().base(),
                (System.nanoTime() - t0) / 1_000_000, jobManagerPids(),
                highAvailability == null ? "" : " (leader " + leaderJobManager().orElse(-1) + ", HA on "
                        + highAvailability.zooKeeperQuorum() + highAvailability.clusterId() + ")",
                taskManagers.stream().map(ChildJvm::pid).toList());
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
        FlinkRest leader = rest();
        String jarId = leader.uploadJar(jobJar);
        JobID id = JobID.fromHexString(leader.runJar(jarId, entryClass, parallelism, List.of(args)));
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

    /**
     * The REST address, {@code 127.0.0.1:<port>} (what {@code flink run -m} takes): with high availability, the
     * leader's as ZooKeeper names it now (after a failover, the new leader's once it is elected), or a live
     * JobManager's while none is named (a standby's REST endpoint forwards to the leader).
     */
    public String restAddress() {
        return "127.0.0.1:" + currentJobManager().restPort;
    }

    /** Waits until the job and all its tasks run (e.g. after a submission or a failover). */
    public void awaitRunning(JobID job, Duration timeout) {
        awaitUntil("job " + job + " running", () -> rest().allTasksRunning(job.toHexString()), timeout);
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
                () -> rest().jobState(job.toHexString()).map(s -> !"RUNNING".equals(s) && !"CANCELLING".equals(s))
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
        Set<String> running = rest().taskManagersRunning(job.toHexString());
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
        startTaskManager();
        await("TaskManager registration", () -> rest().taskManagers() >= alive + 1);
    }

    /** Starts one more TaskManager without waiting for it to register (it does so once its JVM is up). */
    public void startTaskManager() {
        taskManagers.add(launchTaskManager(taskManagers.size()));
    }

    public List<Long> taskManagerPids() {
        return taskManagers.stream().filter(ChildJvm::isAlive).map(ChildJvm::pid).toList();
    }

    /** The leader's REST API (see {@link #restAddress()}). */
    public FlinkRest rest() {
        return currentJobManager().rest;
    }

    /** The pids of the live JobManagers, in start order. */
    public List<Long> jobManagerPids() {
        return jobManagers.stream().filter(JobManager::isAlive).map(jm -> jm.process.pid()).toList();
    }

    /**
     * The index (0-based, in start order) of the live JobManager that ZooKeeper names as leader now; empty
     * while none is (during an election, or when the named one has just died). Without high availability, the
     * one JobManager while it lives.
     */
    public Optional<Integer> leaderJobManager() {
        if (leaders == null) {
            return jobManagers.get(0).isAlive() ? Optional.of(0) : Optional.empty();
        }
        return leaders.restLeader().flatMap(uri -> jobManagers.stream()
                .filter(jm -> jm.restPort == uri.getPort() && jm.isAlive()).map(jm -> jm.index).findFirst());
    }

    /** Waits until a live JobManager leads (e.g. after {@link #killLeaderJobManager()}) and returns its index. */
    public int awaitLeaderJobManager(Duration timeout) {
        awaitUntil("a live leading JobManager", () -> leaderJobManager().isPresent(), timeout);
        return leaderJobManager().orElseThrow();
    }

    /**
     * {@code kill -9} of the leading JobManager (waiting for one to be elected first): what a machine failure
     * does. The standby takes over once ZooKeeper expires the dead leader's session ({@link
     * FlinkHighAvailability#sessionTimeout()}) and recovers the running jobs from the HA store and their latest
     * completed checkpoints. Returns what was killed.
     */
    public KilledJobManager killLeaderJobManager() {
        JobManager leader = jobManagers.get(awaitLeaderJobManager(startTimeout));
        KilledJobManager killed = new KilledJobManager(leader.index, leader.process.pid(), "127.0.0.1:" + leader.restPort,
                System.currentTimeMillis());
        LOG.info("kill -9 leading JobManager {} (pid {}, REST {})", leader.index, killed.pid(), killed.restAddress());
        leader.process.kill();
        return killed;
    }

    /**
     * Starts JobManager {@code index} again (after a kill), with its own ports and the same configuration; it
     * joins as a standby while another leads. Waits until its REST endpoint answers.
     */
    public void restartJobManager(int index) {
        startJobManager(index);
        JobManager jm = jobManagers.get(index);
        await("JobManager " + index + " REST endpoint", () -> jm.rest.get("/config").isPresent());
        LOG.info("JobManager {} restarted (pid {})", index, jm.process.pid());
    }

    /** Starts JobManager {@code index} again (after a kill) without waiting for its REST endpoint. */
    public void startJobManager(int index) {
        JobManager jm = jobManagers.get(index);
        if (jm.isAlive()) {
            throw new IllegalStateException("JobManager " + index + " (pid " + jm.process.pid() + ") is running");
        }
        launchJobManager(jm);
    }

    /** A JobManager killed by {@link #killLeaderJobManager()}: its index, pid, REST address and the kill's time. */
    public record KilledJobManager(int index, long pid, String restAddress, long killedAtMillis) {}

    public Path workDir() {
        return workDir;
    }

    /** Stops every process (SIGTERM) and deletes the work directory if this object created it. */
    @Override
    public void close() {
        stopProcesses();
        if (ownsWorkDir) {
            LocalKafkaBroker.deleteRecursively(workDir);
        }
    }

    private void stopProcesses() {
        for (ChildJvm tm : taskManagers) {
            tm.stop(Duration.ofSeconds(10));
        }
        for (JobManager jm : jobManagers) {
            if (jm.process != null) {
                jm.process.stop(Duration.ofSeconds(15));
            }
        }
        if (leaders != null) {
            leaders.close();
        }
    }

    private void launchJobManager(JobManager jm) {
        String name = jobManagers.size() == 1 ? "jobmanager" : "jobmanager-" + jm.index;
        Path log = workDir.resolve("log/" + name + ".log");
        FlinkProcessOptions.Options opts = FlinkProcessOptions.jobManager(config.asConfiguration(), confDir(), log);
        // its REST port (moved when taken: relaunchFailedStarts) and, with HA, its RPC port (in HA mode that is
        // high-availability.jobmanager.port); first, as the entrypoint's parser ignores everything after an option
        // it does not know (--executionMode)
        List<String> args = new ArrayList<>(List.of("-D", "rest.port=" + jm.restPort));
        if (highAvailability != null) {
            args.addAll(List.of("-D", "jobmanager.rpc.port=" + jm.rpcPort,
                    "-D", "high-availability.jobmanager.port=" + jm.rpcPort));
        }
        args.addAll(opts.args());
        jm.process = ChildJvm.start("flink-" + name, opts.jvm(), classpath, JM_MAIN, args, log);
        jm.launches++;
    }

    /** True when the JobManager runs and its REST endpoint answers. */
    private boolean answers(JobManager jm) {
        return jm.isAlive() && jm.rest.get("/config").isPresent();
    }

    /**
     * While the cluster starts, launches again a JobManager whose process exited by itself, as a supervisor
     * (systemd, Kubernetes) would, up to {@link #JOBMANAGER_START_ATTEMPTS} launches in all; then it is an error.
     * Why: Pekko's classic remoting must start within 10 s, and Flink's {@code pekko.startup-timeout} does not
     * reach that limit (Flink writes {@code pekko.remote.startup-timeout}, classic remoting reads
     * {@code pekko.remote.classic.startup-timeout}; seen in Flink 2.2.1's reference.conf and {@code PekkoUtils}):
     * at load 27 on 2 cores a JobManager of an HA pair exited with "Could not create actor system" (Futures timed
     * out after [10000 milliseconds]). A JobManager whose REST port was taken ("Could not start rest endpoint",
     * a {@code BindException}: a port found free is another process's until it is bound, e.g. the local end of a
     * client's connection, and so it stayed for all three launches of a recovery bench's JobManager) is launched on
     * a new one. Always true, for use in a wait's condition.
     */
    private boolean relaunchFailedStarts() {
        for (JobManager jm : jobManagers) {
            if (jm.process != null && !jm.isAlive()) {
                if (jm.launches >= JOBMANAGER_START_ATTEMPTS) {
                    throw new IllegalStateException("Flink JobManager " + jm.index + " exited " + jm.launches
                            + " times while the cluster started: " + jm.process.logTail(3000));
                }
                LOG.warn("Flink JobManager {} exited while the cluster started (launch {} of {}), launching it "
                        + "again: {}", jm.index, jm.launches, JOBMANAGER_START_ATTEMPTS, jm.process.logTail(1500));
                if (jm.process.logTail(LOG_TAIL_FOR_CAUSE).contains(REST_PORT_TAKEN)) {
                    int taken = jm.restPort;
                    jm.moveRest(FreePorts.distinct(1, usedPorts())[0]);
                    LOG.warn("Flink JobManager {}'s REST port {} was taken: it moves to {}", jm.index, taken, jm.restPort);
                    if (highAvailability != null) {
                        config.writeMasters(jobManagers.stream().map(j -> "127.0.0.1:" + j.restPort).toList());
                    }
                }
                launchJobManager(jm);
            }
        }
        return true;
    }

    /** The JobManagers' ports, to keep a new one apart from them. */
    private int[] usedPorts() {
        return jobManagers.stream().flatMapToInt(jm -> IntStream.of(jm.rpcPort, jm.restPort)).toArray();
    }

    /** The leader, or (none named) the first live JobManager, or (none alive) the first. */
    private JobManager currentJobManager() {
        Optional<Integer> leader = leaderJobManager();
        if (leader.isPresent()) {
            return jobManagers.get(leader.get());
        }
        return jobManagers.stream().filter(JobManager::isAlive).findFirst().orElse(jobManagers.get(0));
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
        conf.set(RestOptions.PORT, currentJobManager().restPort);
        conf.set(JobManagerOptions.ADDRESS, "127.0.0.1");
        return conf;
    }

    private Path confDir() {
        return config.confDir();
    }

    private void await(String what, BooleanSupplier done) {
        awaitUntil(what, done, startTimeout);
    }

    /**
     * Waits for the cluster's start: a JobManager that exits meanwhile is launched again first
     * ({@link #relaunchFailedStarts}, which makes its last allowed exit the error), so that one found dead between
     * two looks is relaunched, not taken for a cluster without JobManagers.
     */
    private void awaitStart(String what, BooleanSupplier done) {
        awaitUntil(what, () -> relaunchFailedStarts() && done.getAsBoolean(), startTimeout, false);
    }

    private void awaitUntil(String what, BooleanSupplier done, Duration timeout) {
        awaitUntil(what, done, timeout, true);
    }

    private void awaitUntil(String what, BooleanSupplier done, Duration timeout, boolean failWithoutJobManager) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (failWithoutJobManager && jobManagers.stream().allMatch(jm -> jm.process != null && !jm.isAlive())) {
                throw new IllegalStateException("every Flink JobManager exited: "
                        + jobManagers.get(jobManagers.size() - 1).process.logTail(3000));
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
        private int jobManagers = 1;
        private FlinkHighAvailability highAvailability;
        private int slotsPerTaskManager = 2;
        private String taskManagerMemory = "1024m";
        private String jobManagerMemory = "768m";
        private JvmClasspath classpath;
        private Duration startTimeout = Duration.ofSeconds(120);
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private int firstRestPort;

        private Builder() {}

        /** The first JobManager's REST port (default: one found free); for a test of a port taken at the start. */
        Builder firstRestPort(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("REST port (" + port + ") must be in [1, 65535]");
            }
            this.firstRestPort = port;
            return this;
        }

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

        /**
         * JobManager processes (default 1): more than one needs {@link #highAvailability}; one leads and the others
         * stand by.
         */
        public Builder jobManagers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("job managers (" + n + ") must be >= 1");
            }
            this.jobManagers = n;
            return this;
        }

        /** ZooKeeper high availability ({@code high-availability.type: zookeeper}); see {@link FlinkHighAvailability}. */
        public Builder highAvailability(FlinkHighAvailability ha) {
            this.highAvailability = Objects.requireNonNull(ha, "high availability");
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

    /**
     * One JobManager process slot: its ports (kept across restarts; the REST port moves when it was taken at a
     * start) and its current process.
     */
    private static final class JobManager {
        final int index;
        final int rpcPort;
        int restPort;
        FlinkRest rest;
        ChildJvm process;
        /** How many times its process was launched. */
        int launches;

        JobManager(int index, int rpcPort, int restPort) {
            this.index = index;
            this.rpcPort = rpcPort;
            this.restPort = restPort;
            this.rest = new FlinkRest(URI.create("http://127.0.0.1:" + restPort));
        }

        boolean isAlive() {
            return process != null && process.isAlive();
        }

        void moveRest(int port) {
            this.restPort = port;
            this.rest = new FlinkRest(URI.create("http://127.0.0.1:" + port));
        }
    }
}
