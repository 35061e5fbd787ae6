package dev.nona.sim.engine;

import dev.nona.check.Checks;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

/**
 * The one discrete-event engine of the simulator: an event heap ({@link EventQueue}), $N$ FIFO servers that run
 * one task at a time ({@link Servers}), one FIFO bottleneck link ({@link Link}) and timed actions. What runs on it
 * (jobs, their tasks and transfers, how arrivals come) is a {@link Driver}: {@link Simulator} drives it with the
 * Nona paper's DAG jobs; {@code dev.nona.sim.modelaware.ModelAwareSimulator} with the thesis's inference requests.
 *
 * <p>Options ({@link Options}, all off by default, and then the engine does exactly what the paper's simulator
 * does):
 * <ul>
 *   <li>{@link ModelCaches}: per-server model caches bounded by memory with LRU eviction. A task of a model that
 *   is not loaded on its server first loads it: the server is occupied for the model's load time $T_{CS}$ (the
 *   cold start), then the model is loaded (possibly evicting others) and the task runs. Recency for LRU is that
 *   of placement ({@link ModelCaches#place}, called by the driver when it routes a task to a server) and of
 *   loading.</li>
 *   <li>cores per server: a pool of CPU cores that request processes reserve and release
 *   ({@link #reserveCores}), independent of the FIFO server (the thesis's machines run request processes in
 *   parallel beside their one model replica).</li>
 * </ul>
 *
 * <p>A driver may also follow an outer clock ({@link #runUntil}), submitting work between calls and reading the
 * servers' state for its telemetry: the executor twin (nona-cli's {@code dev.nona.twin.TwinCluster}) runs the engine
 * this way in wall-clock time.
 *
 * <p>Items on servers and on the link are opaque {@code long}s the driver packs. Events are primitive (no
 * per-event object) except timed actions ({@link #after}), which the Nona path never uses. Ties in time run in
 * scheduling order, so a run is deterministic. Not thread-safe; one run per instance.
 */
public final class Engine {
    /** {@link Driver#taskModel} of a task that needs no model. */
    public static final int NO_MODEL = -1;
    /** {@link Driver#partLoadSeconds} of a task that loads nothing. */
    public static final double NO_LOAD = -1;

    private static final long ARRIVAL = 0L;
    private static final long SERVER_DONE = 1L << 40;
    private static final long LINK_DONE = 2L << 40;
    private static final long TIMER = 3L << 40;
    private static final long MODEL_LOADED = 4L << 40;
    private static final long TYPE_MASK = 7L << 40;

    /**
     * What runs on the engine. The engine calls it back as events happen; it submits tasks and transfers and
     * schedules arrivals.
     */
    public interface Driver {
        /** An arrival scheduled with {@link Engine#scheduleArrival} happened. */
        void arrival(int stream);

        /** Seconds {@code item} occupies {@code server} (without any cold start); asked once, when it starts. */
        double taskSeconds(int server, long item);

        /** The model {@code item} needs loaded, as an index into {@link ModelCaches}, or {@link #NO_MODEL}. */
        default int taskModel(long item) {
            return NO_MODEL;
        }

        /**
         * Seconds {@code item} first spends loading model parts on {@code server} (a cold start the driver's own
         * caches decide), or {@link Engine#NO_LOAD}; asked when it starts, after {@link #taskSeconds}. A load of
         * 0 seconds still counts as a cold start. Default: no load.
         */
        default double partLoadSeconds(int server, long item) {
            return NO_LOAD;
        }

        /**
         * {@code item} started on {@code server} now; {@code cold} if it first waits for its model's cold start.
         * Called after {@link #taskSeconds}. Default: nothing.
         */
        default void taskStarted(int server, long item, boolean cold) {
        }

        /** {@code item} finished on {@code server} (the server's next queued task has already started). */
        void taskDone(int server, long item);

        /** Seconds transfer {@code item} occupies the link, asked when it starts after {@code waitedSeconds} in queue. */
        default double transferSeconds(long item, double waitedSeconds) {
            throw new UnsupportedOperationException("this driver submits no transfers");
        }

        /** Transfer {@code item} finished (the link's next queued transfer has already started). */
        default void transferDone(long item) {
            throw new UnsupportedOperationException("this driver submits no transfers");
        }

        /** A cold start of {@code model} on {@code server} finished after {@code seconds}; the task now runs. */
        default void modelLoaded(int server, int model, double seconds) {
        }
    }

    /**
     * The engine's options.
     *
     * @param caches         per-server model caches with cold starts, or null (off)
     * @param coresPerServer CPU cores each server offers to request processes, or 0 (off)
     */
    public record Options(ModelCaches caches, int coresPerServer) {
        /** The paper's engine: no model caches, no core pools. */
        public static final Options NONE = new Options(null, 0);

        public Options {
            if (coresPerServer < 0) {
                throw new IllegalArgumentException("cores per server (" + coresPerServer + ") must be >= 0");
            }
        }
    }

    private final int serverCount;
    private final Driver driver;
    private final ModelCaches caches;
    private final EventQueue events = new EventQueue();
    private final Servers servers;
    private final Link link = new Link();
    private final int[] freeCores;
    private final int coresPerServer;
    /** Per server, while a cold start runs: the model being loaded, its load time, and the task's service time. */
    private final int[] loadingModel;
    private final double[] loadingSeconds;
    private final double[] pendingService;
    private Runnable[] actions = new Runnable[16];
    private int[] freeSlots = new int[16];
    private int freeSlotCount;
    private int usedSlots;
    private double now;
    private long eventCount;
    private long coldStarts;

    public Engine(int servers, Driver driver, Options options) {
        if (servers < 1) {
            throw new IllegalArgumentException("servers (" + servers + ") must be >= 1");
        }
        this.serverCount = servers;
        this.driver = driver;
        this.caches = options.caches();
        if (caches != null && caches.servers() != servers) {
            throw new IllegalArgumentException("model caches cover " + caches.servers() + " servers, the engine has " + servers);
        }
        this.servers = new Servers(servers);
        this.coresPerServer = options.coresPerServer();
        this.freeCores = new int[coresPerServer > 0 ? servers : 0];
        Arrays.fill(freeCores, coresPerServer);
        this.loadingModel = new int[caches != null ? servers : 0];
        this.loadingSeconds = new double[loadingModel.length];
        this.pendingService = new double[loadingModel.length];
    }

    /**
     * Processes events in time order until none is left, {@code stop} says so (asked before each event), or
     * {@code maxEvents} events were processed.
     *
     * @return true if it stopped at {@code maxEvents} with events left and {@code stop} false
     */
    public boolean run(BooleanSupplier stop, long maxEvents) {
        return loop(stop, maxEvents, Double.POSITIVE_INFINITY);
    }

    /**
     * Processes every event due at or before {@code until}, then moves the clock to {@code until}: for a driver
     * that follows another clock (wall-clock time, as an executor twin does) and submits work between calls.
     */
    public void runUntil(double until) {
        if (!(until >= now)) {
            throw new IllegalArgumentException("until (" + until + ") must not be before now (" + now + ")");
        }
        loop(() -> false, Long.MAX_VALUE, until);
        now = until;
    }

    /** Time of the next event, or {@code +Infinity} when none is scheduled. */
    public double nextEventTime() {
        return events.isEmpty() ? Double.POSITIVE_INFINITY : events.peekTime();
    }

    /** The event loop (one method, with the dispatch in it: this is the simulator's hot path). */
    private boolean loop(BooleanSupplier stop, long maxEvents, double until) {
        while (!events.isEmpty() && events.peekTime() <= until) {
            if (stop.getAsBoolean()) {
                return false;
            }
            if (eventCount >= maxEvents) {
                return true;
            }
            now = events.peekTime();
            long e = events.pop();
            eventCount++;
            long type = e & TYPE_MASK;
            int index = (int) (e & ~TYPE_MASK);
            if (type == ARRIVAL) {
                driver.arrival(index);
            } else if (type == SERVER_DONE) {
                serverDone(index);
            } else if (type == LINK_DONE) {
                linkDone();
            } else if (type == TIMER) {
                timer(index);
            } else {
                modelLoaded(index);
            }
        }
        return false;
    }

    /** Schedules an arrival of {@code stream} at absolute time {@code at}. */
    public void scheduleArrival(double at, int stream) {
        events.push(at, ARRIVAL | stream);
    }

    /** Runs {@code action} after {@code delay} seconds (finite, $\ge 0$). */
    public void after(double delay, Runnable action) {
        Checks.nonNegative(delay, "delay");
        int slot;
        if (freeSlotCount > 0) {
            slot = freeSlots[--freeSlotCount];
        } else {
            if (usedSlots == actions.length) {
                actions = Arrays.copyOf(actions, 2 * usedSlots);
                freeSlots = Arrays.copyOf(freeSlots, 2 * usedSlots);
            }
            slot = usedSlots++;
        }
        actions[slot] = action;
        events.push(now + delay, TIMER | slot);
    }

    private void timer(int slot) {
        Runnable action = actions[slot];
        actions[slot] = null;
        freeSlots[freeSlotCount++] = slot;
        action.run();
    }

    /** Task {@code item} is ready on {@code server}: it starts if the server is idle, else joins its FIFO queue. */
    public void submitTask(int server, long item, double expectedSeconds) {
        if (!servers.busy(server)) {
            startTask(server, item);
        } else {
            servers.enqueue(server, item, expectedSeconds);
        }
    }

    private void startTask(int s, long item) {
        double service = driver.taskSeconds(s, item);
        if (caches != null) {
            int m = driver.taskModel(item);
            if (m != NO_MODEL && !caches.isLoaded(s, m)) {
                coldStarts++;
                double load = caches.loadSeconds(m);
                loadingModel[s] = m;
                loadingSeconds[s] = load;
                pendingService[s] = service;
                servers.start(s, item, now, now + load + service);
                events.push(now + load, MODEL_LOADED | s);
                driver.taskStarted(s, item, true);
                return;
            }
        }
        double load = driver.partLoadSeconds(s, item);
        if (load != NO_LOAD) {
            coldStarts++;
            servers.start(s, item, now, now + load + service);
            events.push(now + load + service, SERVER_DONE | s);
            driver.taskStarted(s, item, true);
            return;
        }
        servers.start(s, item, now, now + service);
        events.push(now + service, SERVER_DONE | s);
        driver.taskStarted(s, item, false);
    }

    private void modelLoaded(int s) {
        int m = loadingModel[s];
        caches.markLoaded(s, m);
        driver.modelLoaded(s, m, loadingSeconds[s]);
        events.push(now + pendingService[s], SERVER_DONE | s);
    }

    private void serverDone(int s) {
        long item = servers.finish(s, now);
        if (servers.hasQueued(s)) {
            // start the next queued task before the finished one's successors join the queue (FIFO)
            startTask(s, servers.pollQueued(s));
        }
        driver.taskDone(s, item);
    }

    /** Transfer {@code item} is ready: it starts if the link is idle, else joins its FIFO queue. */
    public void submitTransfer(long item) {
        if (!link.busy()) {
            startTransfer(item, now);
        } else {
            link.enqueue(item, now);
        }
    }

    private void startTransfer(long item, double enqueuedAt) {
        double service = driver.transferSeconds(item, now - enqueuedAt);
        link.start(item, now, service);
        events.push(now + service, LINK_DONE);
    }

    private void linkDone() {
        long item = link.finish();
        if (link.hasQueued()) {
            double enqueuedAt = link.peekEnqueuedAt();
            startTransfer(link.pollQueued(), enqueuedAt);
        }
        driver.transferDone(item);
    }

    /** Whether {@code server} has {@code cores} free cores (always true when core pools are off). */
    public boolean hasRoom(int server, int cores) {
        return coresPerServer == 0 || freeCores[server] >= cores;
    }

    /** A request process reserves {@code cores} on {@code server}. */
    public void reserveCores(int server, int cores) {
        requireCores();
        if (freeCores[server] < cores) {
            throw new IllegalStateException("BUG: server " + server + " has " + freeCores[server] + " free cores, not " + cores);
        }
        freeCores[server] -= cores;
    }

    /** A request process on {@code server} exited and frees its {@code cores}. */
    public void releaseCores(int server, int cores) {
        requireCores();
        if (freeCores[server] + cores > coresPerServer) {
            throw new IllegalStateException("BUG: server " + server + " would have more than " + coresPerServer + " free cores");
        }
        freeCores[server] += cores;
    }

    private void requireCores() {
        if (coresPerServer == 0) {
            throw new IllegalStateException("core pools are off (Options.coresPerServer is 0)");
        }
    }

    public double now() {
        return now;
    }

    public int servers() {
        return serverCount;
    }

    /** Events processed so far. */
    public long events() {
        return eventCount;
    }

    /** Cold starts begun so far (0 when model caches are off): model loads and the driver's part loads. */
    public long coldStarts() {
        return coldStarts;
    }

    /** The model caches, or null when off. */
    public ModelCaches caches() {
        return caches;
    }

    /** Seconds server {@code s} has spent running tasks (and cold starts) so far. */
    public double busySeconds(int s) {
        return servers.busySeconds(s, now);
    }

    /** Tasks queued or running at server {@code s}. */
    public int queueLength(int s) {
        return servers.queueLength(s);
    }

    /** Seconds of work queued or remaining at server {@code s} (a running cold start counts its load). */
    public double queuedWorkSeconds(int s) {
        return servers.queuedWorkSeconds(s, now);
    }

    /** Transfers queued or in service on the link. */
    public int linkQueueLength() {
        return link.queueLength();
    }

    /** Seconds the link has been busy so far. */
    public double linkBusySeconds() {
        return link.busySeconds(now);
    }

    /** The servers' bookkeeping, for drivers in this package that track placed work ({@link Simulator}). */
    Servers serverState() {
        return servers;
    }
}
