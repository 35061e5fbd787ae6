package dev.nona.sim.engine;

import dev.nona.sim.JobKind;
import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.policy.Policy;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    /** Per server: its speed $\nu_{c(s)}$ and its class. */
    private final double[] speed;
    private final int[] serverClass;
    /** The caches of model parts, or null when the cluster gives no memory and no cold start. */
    private final PartCaches parts;
    private final int[] partTasks;
    private final int[] partServers;
    private final int[] originalServer;
    private final int[] partStamp;
    private int stamp;
    private long memoryViolations;
    private final long[] partsRun;
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
        int n = cluster.servers();
        this.speed = new double[n];
        this.serverClass = new int[n];
        for (int s = 0; s < n; s++) {
            serverClass[s] = cluster.classOf(s);
            speed[s] = cluster.opsPerSecond(s);
        }
        this.partsRun = new long[cluster.classes().size()];
        if (cluster.cachesOn() && caches != null) {
            throw new IllegalArgumentException("the cluster's part caches and the engine's model caches cannot both be on");
        }
        this.parts = cluster.cachesOn() ? new PartCaches(cluster, classes) : null;
        if (parts != null) {
            jobs.trackPartLoads();
        }
        this.partTasks = new int[maxTasks];
        this.partServers = new int[maxTasks];
        this.originalServer = new int[maxTasks];
        this.partStamp = new int[n];
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
                jobs.maxInFlight(), truncated)
                .withPlacementStats(engine.coldStarts(), parts == null ? 0 : parts.reloads(), parts == null ? 0 : parts.evictions(),
                        memoryViolations, serverClassResults());
    }

    /** Per server class: the fraction of the run its servers were busy, and the parts placed on them. */
    private List<SimResult.ServerClassResult> serverClassResults() {
        List<SimResult.ServerClassResult> out = new ArrayList<>();
        double[] busy = new double[partsRun.length];
        for (int s = 0; s < speed.length; s++) {
            busy[serverClass[s]] += engine.busySeconds(s);
        }
        double now = engine.now();
        for (int k = 0; k < partsRun.length; k++) {
            ServerClass sc = cluster.classes().get(k);
            out.add(new SimResult.ServerClassResult(sc.name(), now > 0 ? busy[k] / (now * sc.count()) : 0, partsRun[k]));
        }
        return out;
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
        }
        if (parts != null) {
            admitParts(c, jc);
        }
        for (int t = 0; t < n; t++) {
            int s = scratch[t];
            jobs.server[base + t] = s;
            jobs.pendingInputs[base + t] = jc.inDegree(t);
            if (parts != null) {
                jobs.partLoaded[base + t] = false;
            }
            if (jc.taskOps(t) > 0) {
                assign(base, t, s, jc.taskOps(t) / speed[s]);
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

    /**
     * The model caches' admission of the job's parts (the tasks it placed on one server): a part that does not fit
     * its server even after every idle unit there is evicted is refused there, counted as a memory violation, and
     * moved to the least-loaded server that can hold it ({@link #refuge}); then every part is placed in the caches
     * (its units reserved and pinned).
     */
    private void admitParts(int c, SimJobClass jc) {
        int n = jc.tasks();
        stamp++;
        int groups = 0;
        for (int t = 0; t < n; t++) {
            originalServer[t] = scratch[t];
            if (jc.taskOps(t) > 0 && partStamp[scratch[t]] != stamp) {
                partStamp[scratch[t]] = stamp;
                partServers[groups++] = scratch[t];
            }
        }
        for (int g = 0; g < groups; g++) {
            int s = partServers[g];
            int k = 0;
            for (int t = 0; t < n; t++) {
                if (originalServer[t] == s && jc.taskOps(t) > 0) {
                    partTasks[k++] = t;
                }
            }
            if (!parts.fits(s, c, partTasks, k)) {
                memoryViolations++;
                s = refuge(c, k);
                for (int i = 0; i < k; i++) {
                    scratch[partTasks[i]] = s;
                }
            }
            parts.place(s, c, partTasks, k);
        }
    }

    /**
     * Where a refused part runs: the server with the least queued work that can hold it now; if none can, the one
     * with the least queued work whose whole memory could (it then runs over its memory until its pinned units are
     * released); if no server's memory could, the least loaded of those with the most memory.
     */
    private int refuge(int c, int k) {
        int best = -1;
        for (int s = 0; s < speed.length; s++) {
            if (parts.fits(s, c, partTasks, k) && (best < 0 || engine.queuedWorkSeconds(s) < engine.queuedWorkSeconds(best))) {
                best = s;
            }
        }
        for (int s = 0; best < 0 && s < speed.length; s++) {
            if (parts.fitsEmpty(s, c, partTasks, k)) {
                best = s;
            }
        }
        if (best >= 0 && !parts.fits(best, c, partTasks, k)) {
            for (int s = best + 1; s < speed.length; s++) {
                if (parts.fitsEmpty(s, c, partTasks, k) && engine.queuedWorkSeconds(s) < engine.queuedWorkSeconds(best)) {
                    best = s;
                }
            }
        }
        if (best < 0) {
            best = 0;
            for (int s = 1; s < speed.length; s++) {
                double m = parts.memoryBytes(s);
                double mb = parts.memoryBytes(best);
                if (m > mb || m == mb && engine.queuedWorkSeconds(s) < engine.queuedWorkSeconds(best)) {
                    best = s;
                }
            }
        }
        return best;
    }

    /** Counts task {@code t} (job at {@code base}) as work placed on {@code s}, and the job on {@code s} if it is its first task there. */
    private void assign(int base, int t, int s, double work) {
        servers.assign(s, work);
        if (firstSeen[s] != arrivals) {
            partsRun[serverClass[s]]++;
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
        engine.submitTask(s, item(slot, t), jc.taskOps(t) / speed[s]);
    }

    /**
     * The part of {@code item}'s job on {@code s} starts its first task: its units not loaded are loaded now, one
     * cold start of {@code coldStart.seconds(missing bytes)}; nothing to load (or no part caches): no cold start.
     */
    @Override
    public double partLoadSeconds(int s, long item) {
        if (parts == null) {
            return Engine.NO_LOAD;
        }
        int slot = slotOf(item);
        int base = jobs.base(slot);
        int rep = base + jobs.firstOnServer[base + indexOf(item)];
        if (jobs.partLoaded[rep]) {
            return Engine.NO_LOAD;
        }
        jobs.partLoaded[rep] = true;
        int c = jobs.jobClass[slot];
        SimJobClass jc = classes[c];
        int k = 0;
        for (int t = 0; t < jc.tasks(); t++) {
            if (jobs.server[base + t] == s && jc.taskOps(t) > 0) {
                partTasks[k++] = t;
            }
        }
        double missing = parts.load(s, c, partTasks, k);
        return missing > 0 ? parts.loadSeconds(missing) : Engine.NO_LOAD;
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
        servers.release(s, classes[jobs.jobClass[slot]].taskOps(t) / speed[s]);
        if (parts != null) {
            parts.release(s, jobs.jobClass[slot], t);
        }
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

    @Override
    public double opsPerSecond(int s) {
        return speed[s];
    }

    @Override
    public boolean memoryBounded() {
        return parts != null && cluster.memoryBounded();
    }

    @Override
    public double memoryBytes(int s) {
        return parts == null ? ServerClass.UNBOUNDED : parts.memoryBytes(s);
    }

    @Override
    public double freeMemoryBytes(int s) {
        return parts == null ? ServerClass.UNBOUNDED : parts.freeBytes(s);
    }

    @Override
    public boolean holds(int s, int classIndex, int task) {
        return parts == null || parts.holds(s, classIndex, task);
    }

    @Override
    public boolean fits(int s, int classIndex, int[] tasks, int count) {
        return parts == null || parts.fits(s, classIndex, tasks, count);
    }

    @Override
    public double coldStartSeconds(int s, int classIndex, int[] tasks, int count) {
        return parts == null ? 0 : parts.coldStartSeconds(s, classIndex, tasks, count);
    }

    /** Placements of a part on a server that could not hold it, refused by the caches so far. */
    public long memoryViolations() {
        return memoryViolations;
    }
}
