package dev.nona.sim.engine;

import dev.nona.sim.JobClass;
import dev.nona.sim.JobKind;
import dev.nona.sim.SimCluster;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.policy.Policy;
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
 * the result says {@code arrivalsStopped}. The run then drains and always ends.
 */
public final class Simulator implements ClusterView {
    private static final long ARRIVAL = 0L;
    private static final long SERVER_DONE = 1L << 40;
    private static final long LINK_DONE = 2L << 40;
    private static final long TYPE_MASK = 3L << 40;
    private static final int COMM_EDGE = 0xFFFFF;
    private static final int TASK_BITS = 20;

    private final SimCluster cluster;
    private final JobClass[] classes;
    private final Policy policy;
    private final String policyName;
    private final SimConfig config;
    private final ServiceTimeModel serviceModel;
    private final EventQueue events = new EventQueue();
    private final JobTable jobs;
    private final SplittableRandom[] arrivalRandom;
    private final int[] scratch;
    /** Per server: the arrival that last placed a task there, and that task (see {@link #assign}). */
    private final long[] firstSeen;
    private final int[] firstTask;
    private long arrivals;
    private final Measurement measurement;

    private final Servers servers;
    private final Link link = new Link();

    private double now;
    private long eventCount;

    public Simulator(SimWorkload workload, Policy policy, String policyName, SimConfig config) {
        this(workload, policy, policyName, config, ServiceTimeModel.DETERMINISTIC);
    }

    public Simulator(SimWorkload workload, Policy policy, String policyName, SimConfig config, ServiceTimeModel serviceModel) {
        this.cluster = workload.cluster();
        this.classes = workload.classes().toArray(new JobClass[0]);
        this.policy = policy;
        this.policyName = policyName;
        this.config = config;
        this.serviceModel = serviceModel;
        int maxTasks = 1;
        for (JobClass c : classes) {
            maxTasks = Math.max(maxTasks, c.tasks());
            if (c.tasks() >= COMM_EDGE || c.edges() >= COMM_EDGE) {
                throw new IllegalArgumentException("job class '" + c.name() + "' is too large for the simulator (" + c.tasks() + " tasks)");
            }
        }
        this.jobs = new JobTable(maxTasks);
        this.scratch = new int[maxTasks];
        this.measurement = new Measurement(classes, workload.hasModels(), config);
        this.arrivalRandom = new SplittableRandom[classes.length];
        for (int i = 0; i < classes.length; i++) {
            arrivalRandom[i] = new SplittableRandom(config.seed() * 1_000_003L + i);
        }
        this.servers = new Servers(cluster.servers());
        this.firstSeen = new long[cluster.servers()];
        this.firstTask = new int[cluster.servers()];
    }

    /** Runs to the end: until every measured job has completed (or the event cap). */
    public SimResult run() {
        long start = System.nanoTime();
        for (int c = 0; c < classes.length; c++) {
            scheduleArrival(c);
        }
        boolean truncated = false;
        while (!events.isEmpty()) {
            if (measurement.complete()) {
                break;
            }
            if (eventCount >= config.maxEvents()) {
                truncated = true;
                break;
            }
            now = events.peekTime();
            long e = events.pop();
            eventCount++;
            long type = e & TYPE_MASK;
            int index = (int) (e & ~TYPE_MASK);
            if (type == ARRIVAL) {
                arrive(index);
            } else if (type == SERVER_DONE) {
                serverDone(index);
            } else {
                linkDone();
            }
        }
        double wall = (System.nanoTime() - start) / 1e9;
        return measurement.result(policyName, now, link.busySeconds(now), eventCount, wall, jobs.maxInFlight(), truncated);
    }

    private void scheduleArrival(int c) {
        double rate = classes[c].ratePerSecond();
        if (rate > 0) {
            double gap = -Math.log(1.0 - arrivalRandom[c].nextDouble()) / rate;
            events.push(now + gap, ARRIVAL | c);
        }
    }

    private void arrive(int c) {
        JobClass jc = classes[c];
        boolean measured = measurement.arrival(jc);
        if (measurement.keepArriving(jobs.inFlight())) {
            scheduleArrival(c);
        }
        int slot = jobs.allocate();
        jobs.jobClass[slot] = c;
        jobs.arrival[slot] = now;
        jobs.measured[slot] = measured;
        if (jc.kind() == JobKind.BACKGROUND_COMM) {
            jobs.remainingTasks[slot] = 0;
            enqueueTransfer(slot, COMM_EDGE, jc.commBits());
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
        JobClass jc = classes[jobs.jobClass[slot]];
        if (jc.taskOps(t) == 0) {
            taskDone(slot, t, s);
            return;
        }
        long item = item(slot, t);
        if (!servers.busy(s)) {
            startTask(s, item, jc, t);
        } else {
            servers.enqueue(s, item, jc.taskOps(t) / cluster.opsPerSecond());
        }
    }

    private void startTask(int s, long item, JobClass jc, int t) {
        double service = serviceModel.taskSeconds(cluster, jc, t, s, now);
        serviceModel.taskStarted(jc, t, s, now);
        servers.start(s, item, now, now + service);
        events.push(now + service, SERVER_DONE | s);
    }

    private void serverDone(int s) {
        long item = servers.finish(s);
        int slot = slotOf(item);
        int t = indexOf(item);
        int base = jobs.base(slot);
        servers.release(s, classes[jobs.jobClass[slot]].taskOps(t) / cluster.opsPerSecond());
        if (--jobs.leftOnServer[base + jobs.firstOnServer[base + t]] == 0) {
            servers.jobs(s, -1);
        }
        if (servers.hasQueued(s)) {
            // start the next queued task before the finished one's children join the queue (FIFO)
            long next = servers.pollQueued(s);
            startTask(s, next, classes[jobs.jobClass[slotOf(next)]], indexOf(next));
        }
        taskDone(slotOf(item), indexOf(item), s);
    }

    private void taskDone(int slot, int t, int s) {
        JobClass jc = classes[jobs.jobClass[slot]];
        int base = jobs.base(slot);
        int out = jc.outDegree(t);
        for (int i = 0; i < out; i++) {
            int e = jc.outEdge(t, i);
            int child = jc.edgeTo(e);
            double bits = jc.edgeBits(e);
            if (bits == 0 || jobs.server[base + child] == s) {
                inputArrived(slot, child);
            } else {
                enqueueTransfer(slot, e, bits);
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

    private void enqueueTransfer(int slot, int edge, double bits) {
        long item = item(slot, edge);
        if (!link.busy()) {
            startTransfer(item, bits, now);
        } else {
            link.enqueue(item, now);
        }
    }

    private void startTransfer(long item, double bits, double enqueuedAt) {
        if (jobs.measured[slotOf(item)]) {
            measurement.transferStarted(now - enqueuedAt);
        }
        double service = serviceModel.transferSeconds(cluster, bits);
        link.start(item, now, service);
        events.push(now + service, LINK_DONE);
    }

    private void linkDone() {
        long item = link.finish();
        if (link.hasQueued()) {
            double enqueuedAt = link.peekEnqueuedAt();
            long next = link.pollQueued();
            startTransfer(next, bitsOf(next), enqueuedAt);
        }
        int slot = slotOf(item);
        int edge = indexOf(item);
        if (edge == COMM_EDGE) {
            jobDone(slot);
        } else {
            inputArrived(slot, classes[jobs.jobClass[slot]].edgeTo(edge));
        }
    }

    private double bitsOf(long item) {
        JobClass jc = classes[jobs.jobClass[slotOf(item)]];
        int edge = indexOf(item);
        return edge == COMM_EDGE ? jc.commBits() : jc.edgeBits(edge);
    }

    private void jobDone(int slot) {
        if (jobs.measured[slot]) {
            measurement.jobDone(jobs.jobClass[slot], now - jobs.arrival[slot]);
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
        return now;
    }

    @Override
    public int servers() {
        return cluster.servers();
    }

    @Override
    public int queueLength(int s) {
        return servers.queueLength(s);
    }

    @Override
    public double queuedWorkSeconds(int s) {
        return servers.queuedWorkSeconds(s, now);
    }

    @Override
    public int assignedJobs(int s) {
        return servers.assignedJobs(s);
    }

    @Override
    public double assignedWorkSeconds(int s) {
        return servers.assignedWorkSeconds(s, now);
    }

    @Override
    public int jobsInFlight() {
        return jobs.inFlight();
    }

    @Override
    public int linkQueueLength() {
        return link.queueLength();
    }
}
