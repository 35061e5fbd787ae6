package dev.nona.sim.engine;

import dev.nona.sim.JobKind;
import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.policy.Policy;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Discrete-event simulation of $N$ FIFO servers (one task at a time) and one FIFO bottleneck link, fed by Poisson
 * arrivals of every job class (Nona, Section IV-A, made network-aware as the paper's simulator is). A job's tasks
 * are placed by the {@link Policy} when it arrives; a task joins its server's queue when all its inputs have
 * arrived; an edge between tasks on distinct servers is a transfer that waits in the link's queue. Tasks of zero
 * operations (virtual sources and sinks) and edges of zero bits take no time and never queue.
 *
 * <p>The simulation runs at the granularity of the contracted DAG: a contracted node is one task, because its
 * original tasks always run one after another on one server (Nona, Technique 1).
 *
 * <p>Events live in a primitive heap; jobs in recycled slots; statistics in streaming histograms; so memory grows
 * with the jobs in flight, not with the jobs simulated. Arrival streams are per class ({@code seed}-derived), so
 * two policies run with the same seed see the same arrivals (common random numbers). Not thread-safe; one run
 * per instance.
 *
 * <p>A run measures the jobs that arrive in a window (after a warm-up) and ends when they have all completed
 * ({@link Measurement}). Arrivals go on meanwhile, so the last measured jobs see the same contention as the others;
 * but if the system is unstable (a load $\rho \ge 1$ somewhere) the jobs in flight would grow without bound, so
 * arrivals stop once the jobs in flight reach four times their number at the window's end (at least 50,000), and
 * the result says {@code arrivalsStopped}. The run then drains and always ends. Whenever the jobs in flight reach
 * {@link SimConfig#maxJobsInFlight} (by default what {@code JobTable.defaultLimit} lets fit in 512 MiB), the run
 * stops at once with the figures so far and the result says {@code stoppedAtInFlightLimit}: memory stays bounded.
 *
 * <p>This is a {@link Engine.Driver}: the events, the FIFO servers and the link are the one {@link Engine}'s. With
 * {@link Engine.Options} that turn on model caches, each inference class is a model of the caches (matched by
 * name): a task waits for its model's cold start on a server that has not loaded it, and placing a task routes
 * its model there. With the default options a run is the paper's simulation, event for event.
 */
public final class Simulator implements ClusterView, Engine.Driver {
    private static final int COMM_EDGE = 0xFFFFF;
    private static final int TASK_BITS = 20;

    private final SimCluster cluster;
    private final SimJobClass[] classes;
    private final Policy policy;
    private final String policyName;
    private final SimConfig config;
    private final ServiceTimeModel serviceModel;
    private final Engine engine;
    private final JobTable jobs;
    private final SplittableRandom[] arrivalRandom;
    private final int[] scratch;
    /** Per server: the arrival that last placed a task there, and that task (see {@link #assign}). */
    private final long[] firstSeen;
    private final int[] firstTask;
    /** Per job class: its model's index in the engine's model caches, or {@link Engine#NO_MODEL}. */
    private final int[] classModel;
    private final ModelCaches caches;
    private long arrivals;
    private final Measurement measurement;

    private final Servers servers;

    public Simulator(SimWorkload workload, Policy policy, String policyName, SimConfig config) {
        this(workload, policy, policyName, config, ServiceTimeModel.DETERMINISTIC);
    }

    public Simulator(SimWorkload workload, Policy policy, String policyName, SimConfig config, ServiceTimeModel serviceModel) {
        this(workload, policy, policyName, config, serviceModel, Engine.Options.NONE);
    }

    /** A run on an engine with {@code options} (model caches and cold starts; core pools are not used here). */
    public Simulator(SimWorkload workload, Policy policy, String policyName, SimConfig config, ServiceTimeModel serviceModel,
                     Engine.Options options) {
        this.cluster = workload.cluster();
        this.classes = workload.classes().toArray(new SimJobClass[0]);
        this.policy = policy;
        this.policyName = policyName;
        this.config = config;
        this.serviceModel = serviceModel;
        int maxTasks = 1;
        int maxEdges = 0;
        for (SimJobClass c : classes) {
            maxTasks = Math.max(maxTasks, c.tasks());
            maxEdges = Math.max(maxEdges, c.edges());
            if (c.tasks() >= COMM_EDGE || c.edges() >= COMM_EDGE) {
                throw new IllegalArgumentException("job class '" + c.name() + "' is too large for the simulator (" + c.tasks() + " tasks)");
            }
        }
        int inFlightLimit = config.maxJobsInFlight() == SimConfig.AUTO_IN_FLIGHT
                ? JobTable.defaultLimit(maxTasks, maxEdges) : (int) config.maxJobsInFlight();
        this.jobs = new JobTable(maxTasks, inFlightLimit);
        this.scratch = new int[maxTasks];
        this.measurement = new Measurement(classes, workload.hasModels(), config, inFlightLimit);
        this.arrivalRandom = new SplittableRandom[classes.length];
        for (int i = 0; i < classes.length; i++) {
            arrivalRandom[i] = new SplittableRandom(config.seed() * 1_000_003L + i);
        }
        this.engine = new Engine(cluster.servers(), this, options);
        this.servers = engine.serverState();
        this.caches = options.caches();
        this.classModel = new int[classes.length];
        Arrays.fill(classModel, Engine.NO_MODEL);
        if (caches != null) {
            for (int c = 0; c < classes.length; c++) {
                classModel[c] = caches.modelIndex(classes[c].name());
            }
        }
        this.firstSeen = new long[cluster.servers()];
        this.firstTask = new int[cluster.servers()];
    }

    /** Runs to the end: until every measured job has completed (or the event cap). */
    public SimResult run() {
        long start = System.nanoTime();
        for (int c = 0; c < classes.length; c++) {
            scheduleArrival(c);
        }
        boolean truncated = engine.run(measurement::complete, config.maxEvents());
        double wall = (System.nanoTime() - start) / 1e9;
        return measurement.result(policyName, engine.now(), engine.linkBusySeconds(), engine.events(), wall,
                jobs.maxInFlight(), truncated);
    }

    /** The engine this run drives (its cold starts, model caches). */
    public Engine engine() {
        return engine;
    }

    private void scheduleArrival(int c) {
        double rate = classes[c].ratePerSecond();
        if (rate > 0) {
            double gap = -Math.log(1.0 - arrivalRandom[c].nextDouble()) / rate;
            engine.scheduleArrival(engine.now() + gap, c);
        }
    }

    @Override
    public void arrival(int c) {
        SimJobClass jc = classes[c];
        boolean measured = measurement.arrival(jc);
        if (measurement.keepArriving(jobs.inFlight())) {
            scheduleArrival(c);
        }
        int slot = jobs.allocate();
        jobs.jobClass[slot] = c;
        jobs.arrival[slot] = engine.now();
        jobs.measured[slot] = measured;
        if (jc.kind() == JobKind.BACKGROUND_COMM) {
            jobs.remainingTasks[slot] = 0;
            engine.submitTransfer(item(slot, COMM_EDGE));
            return;
        }
        int n = jc.tasks();
        jobs.remainingTasks[slot] = n;
        policy.place(c, jc, this, scratch);
        arrivals++;
        int base = jobs.base(slot);
        int serverCount = cluster.servers();
        for (int t = 0; t < n; t++) {
            int s = scratch[t];
            if (s < 0 || s >= serverCount) {
                throw new IllegalStateException("BUG: policy " + policyName + " placed task " + t + " of " + jc.name() + " on server " + s);
            }
            jobs.server[base + t] = s;
            jobs.pendingInputs[base + t] = jc.inDegree(t);
            if (jc.taskOps(t) > 0) {
                assign(base, t, s, jc.taskOps(t) / cluster.opsPerSecond());
                if (classModel[c] != Engine.NO_MODEL) {
                    caches.place(s, classModel[c]);
                }
            }
        }
        for (int t = 0; t < n; t++) {
            if (jc.inDegree(t) == 0) {
                taskReady(slot, t);
            }
        }
    }

    /** Counts task {@code t} (job at {@code base}) as work placed on {@code s}, and the job on {@code s} if it is its first task there. */
    private void assign(int base, int t, int s, double work) {
        servers.assign(s, work);
        if (firstSeen[s] != arrivals) {
            firstSeen[s] = arrivals;
            firstTask[s] = t;
            jobs.leftOnServer[base + t] = 0;
            servers.jobs(s, +1);
        }
        jobs.firstOnServer[base + t] = firstTask[s];
        jobs.leftOnServer[base + firstTask[s]]++;
    }

    private void taskReady(int slot, int t) {
        int s = jobs.server[jobs.base(slot) + t];
        SimJobClass jc = classes[jobs.jobClass[slot]];
        if (jc.taskOps(t) == 0) {
            taskDone(slot, t, s);
            return;
        }
        engine.submitTask(s, item(slot, t), jc.taskOps(t) / cluster.opsPerSecond());
    }

    @Override
    public double taskSeconds(int s, long item) {
        SimJobClass jc = classes[jobs.jobClass[slotOf(item)]];
        int t = indexOf(item);
        double service = serviceModel.taskSeconds(cluster, jc, t, s, engine.now());
        serviceModel.taskStarted(jc, t, s, engine.now());
        return service;
    }

    @Override
    public int taskModel(long item) {
        return classModel[jobs.jobClass[slotOf(item)]];
    }

    @Override
    public void taskDone(int s, long item) {
        int slot = slotOf(item);
        int t = indexOf(item);
        int base = jobs.base(slot);
        servers.release(s, classes[jobs.jobClass[slot]].taskOps(t) / cluster.opsPerSecond());
        if (--jobs.leftOnServer[base + jobs.firstOnServer[base + t]] == 0) {
            servers.jobs(s, -1);
        }
        taskDone(slot, t, s);
    }

    private void taskDone(int slot, int t, int s) {
        SimJobClass jc = classes[jobs.jobClass[slot]];
        int base = jobs.base(slot);
        int out = jc.outDegree(t);
        for (int i = 0; i < out; i++) {
            int e = jc.outEdge(t, i);
            int child = jc.edgeTo(e);
            double bits = jc.edgeBits(e);
            if (bits == 0 || jobs.server[base + child] == s) {
                inputArrived(slot, child);
            } else {
                engine.submitTransfer(item(slot, e));
            }
        }
        if (--jobs.remainingTasks[slot] == 0) {
            jobDone(slot);
        }
    }

    private void inputArrived(int slot, int child) {
        if (--jobs.pendingInputs[jobs.base(slot) + child] == 0) {
            taskReady(slot, child);
        }
    }

    @Override
    public double transferSeconds(long item, double waitedSeconds) {
        if (jobs.measured[slotOf(item)]) {
            measurement.transferStarted(waitedSeconds);
        }
        return serviceModel.transferSeconds(cluster, bitsOf(item));
    }

    @Override
    public void transferDone(long item) {
        int slot = slotOf(item);
        int edge = indexOf(item);
        if (edge == COMM_EDGE) {
            jobDone(slot);
        } else {
            inputArrived(slot, classes[jobs.jobClass[slot]].edgeTo(edge));
        }
    }

    private double bitsOf(long item) {
        SimJobClass jc = classes[jobs.jobClass[slotOf(item)]];
        int edge = indexOf(item);
        return edge == COMM_EDGE ? jc.commBits() : jc.edgeBits(edge);
    }

    private void jobDone(int slot) {
        if (jobs.measured[slot]) {
            measurement.jobDone(jobs.jobClass[slot], engine.now() - jobs.arrival[slot]);
        }
        jobs.release(slot);
    }

    /** A server's or the link's queue item: a job's slot and one of its task or edge indices. */
    private static long item(int slot, int index) {
        return ((long) slot << TASK_BITS) | index;
    }

    private static int slotOf(long item) {
        return (int) (item >>> TASK_BITS);
    }

    private static int indexOf(long item) {
        return (int) (item & ((1 << TASK_BITS) - 1));
    }

    /** Slots allocated for jobs in flight (grows only with the peak number of concurrent jobs). */
    public int jobSlotCapacity() {
        return jobs.capacity();
    }

    @Override
    public double now() {
        return engine.now();
    }

    @Override
    public int servers() {
        return cluster.servers();
    }

    @Override
    public int queueLength(int s) {
        return engine.queueLength(s);
    }

    @Override
    public double queuedWorkSeconds(int s) {
        return engine.queuedWorkSeconds(s);
    }

    @Override
    public int assignedJobs(int s) {
        return servers.assignedJobs(s);
    }

    @Override
    public double assignedWorkSeconds(int s) {
        return servers.assignedWorkSeconds(s, engine.now());
    }

    @Override
    public int jobsInFlight() {
        return jobs.inFlight();
    }

    @Override
    public int linkQueueLength() {
        return engine.linkQueueLength();
    }
}
