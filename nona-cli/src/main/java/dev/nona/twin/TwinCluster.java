package dev.nona.twin;

import dev.nona.modelaware.ModelProfile;
import dev.nona.modelaware.ModelRegistry;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.engine.Engine;
import dev.nona.sim.engine.ModelCaches;
import dev.nona.sim.engine.PartCaches;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The executor twin's cluster: the simulator's one {@link Engine} (FIFO servers that run one stage at a time, one
 * FIFO bottleneck link, per-server LRU model caches with cold starts) driven by the wall clock; each server computes
 * at its class's speed. The caller {@link #advanceTo advances} it to the current time and {@link #submit submits}
 * each decision as a job arriving
 * now; stages then run as the Nona paper's simulator runs a job's tasks (a stage is ready when all its inputs have
 * arrived; an edge between stages on distinct servers is a transfer of its bytes over the link; a stage of no
 * compute takes no time), and a completed request becomes a {@link PlacementOutcome} ({@link #drainOutcomes}).
 *
 * <p>Model caches are either the thesis's model slots ({@code cacheSlots}: whole models, a fixed cold start) or,
 * with server classes of bounded memory or a cold-start cost ({@link TwinOptions#partCaches}), the simulator's
 * {@link PartCaches} by bytes ({@link TwinMemory}): a stage pins its bytes only while it is ready or running; a
 * ready stage that does not fit beside the pinned ones once every idle unit is evicted (least recently used first)
 * waits on its server, in arrival order, holding nothing, until pinned stages finish; a part's first stage to start
 * loads the part (a cold start of {@code F + bytes / B} for what the server does not hold). A decision with a part
 * larger than its server's whole memory is never run: a
 * {@code failed} outcome naming the part, counted as a memory violation.
 *
 * <p>Faults ({@link TwinOptions}): a slowed server computes each stage in FACTOR times its nominal time and
 * reports its nominal speed; a silenced server, from its time on, finishes nothing it was running or given, and
 * reports nothing. A request not complete {@code timeoutSeconds} after it was received ends with a
 * {@code timeout} outcome listing the parts that had finished, and its remaining stages are dropped (they take no
 * time when they reach the head of a queue).
 *
 * <p>Times: the engine's clock is seconds since {@code originMillis}; outcome and telemetry times are epoch
 * milliseconds. A request's {@code observedJctSeconds} runs from when the twin received its decision to when its
 * last stage finished. It is also a {@link ClusterView}, so that the simulator's live-state policies can place
 * requests on it ({@link BaselineReplay}). Not thread-safe.
 */
public final class TwinCluster implements Engine.Driver, ClusterView {
    private static final int INDEX_BITS = 20;

    private final TwinOptions options;
    private final long originMillis;
    private final TwinServers servers;
    private final ModelCaches caches;
    /** The servers' memory for model parts, or null without part caches. */
    private final TwinMemory memory;
    private final long[] partsRun;
    private final Engine engine;
    private final Map<Long, TwinRequest> inFlight = new HashMap<>();
    private final List<PlacementOutcome> outcomes = new ArrayList<>();
    private long nextId;
    private long completed;
    private long timedOut;
    private long failed;

    /** Per server class: its servers, the fraction of the time they were busy (stages and cold starts), the parts run. */
    public record ClassFigures(String name, int servers, double utilisation, long partsRun) {}

    /** What is wrong with a decision the twin cannot execute: a kind (for counting) and the particular reason. */
    public record Rejection(String kind, String reason) {}

    public TwinCluster(TwinOptions options, long originMillis) {
        this.options = options;
        this.originMillis = originMillis;
        this.servers = new TwinServers(options);
        this.caches = options.cacheSlots() > 0
                ? new ModelCaches(new ModelRegistry(), servers.ids(), options.cacheSlots(), List.of()) : null;
        this.memory = options.partCaches() ? new TwinMemory(options) : null;
        this.partsRun = new long[options.classes().size()];
        this.engine = new Engine(options.servers(), this, new Engine.Options(caches, 0));
    }

    /** Runs the engine up to {@code nowMillis} (a time before the engine's clock changes nothing). */
    public void advanceTo(long nowMillis) {
        double t = seconds(nowMillis);
        if (t > engine.now()) {
            engine.runUntil(t);
        }
    }

    /**
     * Executes {@code decision} of {@code model} as a job arriving at {@code nowMillis} (the engine is first
     * advanced to it).
     *
     * @return null if it was submitted (a decision with a part larger than its server's memory is submitted as a
     *         {@code failed} outcome), else why it cannot run (a stage on an unknown server, stages that are not the
     *         model's tasks exactly once)
     */
    public Rejection submit(PlacementDecision decision, TwinModel model, long nowMillis) {
        int[] server = new int[model.tasks()];
        Rejection bad = assign(decision, model, server);
        if (bad != null) {
            return bad;
        }
        advanceTo(nowMillis);
        TwinRequest r = new TwinRequest(nextId++, decision, model, cacheModel(model.name()), engine.now(), server);
        if (memory != null) {
            r.cacheParts(memory.modelIndex(model));
            String tooLarge = memory.tooLarge(r, servers, options.classes().stream().map(c -> c.name()).toList());
            if (tooLarge != null) {
                failed++;
                end(r, OutcomeStatus.FAILED, tooLarge);
                return null;
            }
        }
        inFlight.put(r.id, r);
        for (int p = 0; p < r.parts(); p++) {
            servers.requests(r.partServer[p], +1);
        }
        for (int t = 0; t < model.tasks(); t++) {
            if (model.ops(t) > 0) {
                servers.assigned(server[t], nominalSeconds(model, t, server[t]));
                if (r.cacheModel != Engine.NO_MODEL) {
                    caches.place(server[t], r.cacheModel);
                }
            }
        }
        countParts(r);
        if (memory != null) {
            memory.wanted(r);
        }
        engine.after(options.timeoutSeconds(), () -> expire(r));
        for (int t = 0; t < model.tasks(); t++) {
            if (model.inDegree(t) == 0) {
                ready(r, t);
            }
        }
        return null;
    }

    private Rejection assign(PlacementDecision decision, TwinModel model, int[] server) {
        Arrays.fill(server, -1);
        for (StageAssignment stage : decision.placedStages()) {
            int t = model.task(stage.task());
            if (t < 0) {
                return new Rejection("stages not the model's tasks", "stage task '" + stage.task()
                        + "' is not a task of model '" + model.name() + "'");
            }
            if (server[t] >= 0) {
                return new Rejection("stages not the model's tasks", "stage task '" + stage.task() + "' is placed twice");
            }
            int s = servers.index(stage.server());
            if (s < 0) {
                return new Rejection("unknown server", "stage '" + stage.task() + "' names server '" + stage.server()
                        + "', not one of " + servers.range());
            }
            server[t] = s;
        }
        if (decision.placedStages().size() != model.tasks()) {
            return new Rejection("stages not the model's tasks", decision.placedStages().size() + " stages for the "
                    + model.tasks() + " tasks of model '" + model.name() + "'");
        }
        return null;
    }

    /** The parts run per class: each server a request has work on, once. */
    private void countParts(TwinRequest r) {
        for (int p = 0; p < r.parts(); p++) {
            int s = r.partServer[p];
            for (int t = 0; t < r.model.tasks(); t++) {
                if (r.partOf[t] == p && r.model.ops(t) > 0) {
                    partsRun[servers.classIndex(s)]++;
                    break;
                }
            }
        }
    }

    /** Memory was released on {@code s}: the ready stages that get it now run. */
    private void memoryReleased(int s) {
        memory.released(s, (r, t) -> {
            r.readyWaiting[t] = false;
            engine.submitTask(s, item(r.id, t), nominalSeconds(r.model, t, s) * servers.slowFactor(s));
        });
    }

    private int cacheModel(String model) {
        if (caches == null) {
            return Engine.NO_MODEL;
        }
        int m = caches.modelIndex(model);
        return m != Engine.NO_MODEL ? m : caches.add(new ModelProfile(model, 1.0, options.coldStartSeconds(), 0, 0));
    }

    private void ready(TwinRequest r, int t) {
        int s = r.server[t];
        if (silent(s)) {
            return; // a silenced server runs nothing: the request waits for its timeout
        }
        if (r.model.ops(t) == 0) {
            r.started(t, engine.now(), false);
            finished(r, t);
        } else if (memory != null && !memory.admitOrWait(r, t)) {
            r.readyWaiting[t] = true; // runs when it gets its memory (memoryReleased)
        } else {
            engine.submitTask(s, item(r.id, t), nominalSeconds(r.model, t, s) * servers.slowFactor(s));
        }
    }

    @Override
    public void arrival(int stream) {
        throw new IllegalStateException("BUG: the twin schedules no arrivals");
    }

    @Override
    public double taskSeconds(int s, long item) {
        TwinRequest r = live(item);
        if (r == null) {
            return 0; // a stage of a request that timed out is dropped
        }
        int t = index(item);
        double seconds = nominalSeconds(r.model, t, s) * servers.slowFactor(s);
        r.partCompute[r.partOf[t]] += seconds;
        return seconds;
    }

    @Override
    public int taskModel(long item) {
        TwinRequest r = live(item);
        return r == null ? Engine.NO_MODEL : r.cacheModel;
    }

    /**
     * A stage starts: the bytes its server does not hold are loaded first (the part's first stage loads the part
     * when it fits, {@link TwinMemory#load}), a cold start of {@code F + bytes / B}; nothing to load, or no part
     * caches: none.
     */
    @Override
    public double partLoadSeconds(int s, long item) {
        TwinRequest r = memory == null ? null : live(item);
        if (r == null) {
            return Engine.NO_LOAD;
        }
        int t = index(item);
        double seconds = memory.load(s, r, r.partOf[t], t);
        return seconds >= 0 ? seconds : Engine.NO_LOAD;
    }

    @Override
    public void taskStarted(int s, long item, boolean cold) {
        TwinRequest r = live(item);
        if (r != null) {
            r.started(index(item), engine.now(), cold);
        }
    }

    @Override
    public void taskDone(int s, long item) {
        TwinRequest r = live(item);
        if (r != null && !silent(s)) {
            finished(r, index(item));
        }
    }

    @Override
    public double transferSeconds(long item, double waitedSeconds) {
        TwinRequest r = live(item);
        return r == null ? 0 : 8 * r.model.edgeBytes(index(item)) / options.linkBitsPerSecond();
    }

    @Override
    public void transferDone(long item) {
        TwinRequest r = live(item);
        if (r != null) {
            inputArrived(r, r.model.edgeTo(index(item)));
        }
    }

    private void finished(TwinRequest r, int t) {
        int s = r.server[t];
        int p = r.partOf[t];
        r.pendingInputs[t] = -1; // marks it done (see done)
        r.partFinish[p] = engine.now();
        release(s, r.model, t);
        if (memory != null && r.model.ops(t) > 0) {
            memory.unwanted(s, r, t);
            if (r.pinned[t]) {
                memory.release(s, r, t);
                memoryReleased(s);
            }
        }
        if (--r.leftInPart[p] == 0) {
            servers.requests(s, -1);
        }
        for (int e : r.model.outEdges(t)) {
            int child = r.model.edgeTo(e);
            double bytes = r.model.edgeBytes(e);
            if (bytes == 0 || r.server[child] == s) {
                inputArrived(r, child);
            } else {
                r.linkBytes += bytes;
                engine.submitTransfer(item(r.id, e));
            }
        }
        if (--r.remainingTasks == 0) {
            end(r, OutcomeStatus.OK, null);
            completed++;
        }
    }

    private void inputArrived(TwinRequest r, int child) {
        if (--r.pendingInputs[child] == 0) {
            ready(r, child);
        }
    }

    /** The request's deadline passed: if it is still running, it ends with a timeout outcome. */
    private void expire(TwinRequest r) {
        if (r.ended) {
            return;
        }
        List<String> waiting = new ArrayList<>();
        for (int p = 0; p < r.parts(); p++) {
            int s = r.partServer[p];
            if (r.leftInPart[p] > 0) {
                servers.requests(s, -1);
                waiting.add(servers.id(s) + (silent(s) ? " (silent)" : "") + partState(r, p));
            }
        }
        for (int t = 0; t < r.model.tasks(); t++) {
            if (r.model.ops(t) > 0 && !done(r, t)) {
                release(r.server[t], r.model, t);
                if (memory != null) {
                    memory.release(r.server[t], r, t);
                    memory.unwanted(r.server[t], r, t);
                }
            }
        }
        r.ended = true; // before memoryReleased, which drops the request's own waiting parts
        for (int p = 0; memory != null && p < r.parts(); p++) {
            memoryReleased(r.partServer[p]);
        }
        end(r, OutcomeStatus.TIMEOUT, String.format("not complete %s s after the twin received it: %d of %d stages "
                + "left, on %s", trim(options.timeoutSeconds()), r.remainingTasks, r.model.tasks(), String.join(", ", waiting)));
        timedOut++;
    }

    /**
     * With part caches, what an unfinished part was doing: " (waiting for memory, N stages waiting there)" when a
     * ready stage of it waited for memory, " (waiting for inputs)" when no stage of it was ready, else "" (queued or
     * running).
     */
    private String partState(TwinRequest r, int p) {
        if (memory == null) {
            return "";
        }
        boolean ready = false;
        for (int t : r.partTasks[p]) {
            if (r.readyWaiting[t]) {
                return " (waiting for memory, " + memory.waitingOn(r.partServer[p]) + " stages waiting there)";
            }
            ready |= r.pinned[t];
        }
        return ready ? "" : " (waiting for inputs)";
    }

    /** Whether task {@code t} has finished ({@link #finished} marks it). */
    private static boolean done(TwinRequest r, int t) {
        return r.pendingInputs[t] < 0;
    }

    private void end(TwinRequest r, OutcomeStatus status, String reason) {
        r.ended = true;
        inFlight.remove(r.id);
        List<OutcomePart> parts = new ArrayList<>();
        for (int p = 0; p < r.parts(); p++) {
            if (r.leftInPart[p] == 0) {
                parts.add(new OutcomePart(servers.id(r.partServer[p]), millis(r.partStart[p]),
                        millis(r.partFinish[p]), r.partCold[p], null, r.partCompute[p]));
            }
        }
        parts.sort((a, b) -> Long.compare(a.startedAt(), b.startedAt()));
        PlacementDecision d = r.decision;
        double jct = engine.now() - r.receivedAt;
        long linkBytes = Math.round(r.linkBytes);
        outcomes.add(status == OutcomeStatus.OK
                ? PlacementOutcome.ok(d.requestId(), d.model(), d.tableVersion(), parts, linkBytes, millis(engine.now()), jct)
                : PlacementOutcome.ended(d.requestId(), d.model(), d.tableVersion(), parts, linkBytes, status,
                        millis(engine.now()), jct, reason));
    }

    private void release(int s, TwinModel model, int t) {
        if (model.ops(t) > 0) {
            servers.released(s, nominalSeconds(model, t, s));
        }
    }

    /** The outcomes of requests that ended since the last call, in the order they ended. */
    public List<PlacementOutcome> drainOutcomes() {
        List<PlacementOutcome> out = List.copyOf(outcomes);
        outcomes.clear();
        return out;
    }

    /**
     * One status per server that is not silenced at {@code nowMillis}: up, its nominal speed, its ongoing
     * requests, its backlog (nominal seconds of the stages it was given and has not finished), its loaded models,
     * and the link's capacity; with part caches its class, and with bounded memory that memory and its free memory
     * (the memory less what ready and running stages pin: idle parts, which a new part may evict, count as free).
     */
    public List<ServerTelemetry> telemetry(long nowMillis) {
        return servers.telemetry(nowMillis, Math.max(engine.now(), seconds(nowMillis)), this::cachedModels,
                memory == null ? null : memory::freeBytes);
    }

    /** What server {@code s} holds loaded: models by slot, or with part caches each model's loaded bytes. */
    private List<CachedModel> cachedModels(int s) {
        if (caches != null) {
            return servers.loadedModels(s, caches);
        }
        return memory == null ? List.of() : memory.loaded(s);
    }

    @Override
    public double now() {
        return engine.now();
    }

    @Override
    public int servers() {
        return engine.servers();
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
    public double assignedWorkSeconds(int s) {
        return servers.backlogSeconds(s);
    }

    @Override
    public int assignedJobs(int s) {
        return servers.ongoing(s);
    }

    /** Requests in flight, plus the one being placed. */
    @Override
    public int jobsInFlight() {
        return inFlight.size() + 1;
    }

    @Override
    public int linkQueueLength() {
        return engine.linkQueueLength();
    }

    /** Requests received and not yet ended. */
    public int inFlight() {
        return inFlight.size();
    }

    public long completed() {
        return completed;
    }

    public long timedOut() {
        return timedOut;
    }

    /** Cold starts begun so far. */
    public long coldStarts() {
        return engine.coldStarts();
    }

    /** Requests that ended {@code failed}: a part larger than its server's memory. */
    public long failed() {
        return failed;
    }

    /** Units of model parts evicted so far (0 without part caches). */
    public long evictions() {
        return memory == null ? 0 : memory.evictions();
    }

    /** Decisions with a part larger than its server's whole memory: never run, each a {@code failed} outcome. */
    public long memoryViolations() {
        return memory == null ? 0 : memory.violations();
    }

    /** Ready stages that waited on their server for pinned ones to release memory before they could run. */
    public long memoryWaits() {
        return memory == null ? 0 : memory.waits();
    }

    /** Per server class, in order: its servers' busy fraction since the twin's start and the parts run on them. */
    public List<ClassFigures> classFigures() {
        List<ClassFigures> out = new ArrayList<>();
        double now = engine.now();
        for (int c = 0; c < options.classes().size(); c++) {
            ServerClass sc = options.classes().get(c);
            double busy = 0;
            for (int s = 0; s < options.servers(); s++) {
                if (servers.classIndex(s) == c) {
                    busy += engine.busySeconds(s);
                }
            }
            out.add(new ClassFigures(sc.name(), sc.count(), now > 0 ? busy / (now * sc.count()) : 0, partsRun[c]));
        }
        return out;
    }

    /** Seconds the bottleneck link has been busy. */
    public double linkBusySeconds() {
        return engine.linkBusySeconds();
    }

    /** Wall-clock epoch milliseconds of the engine's next event, or {@link Long#MAX_VALUE} when none is due. */
    public long nextEventMillis() {
        double t = engine.nextEventTime();
        return Double.isInfinite(t) ? Long.MAX_VALUE : originMillis + (long) Math.ceil(t * 1000);
    }

    private boolean silent(int s) {
        return servers.silent(s, engine.now());
    }

    private TwinRequest live(long item) {
        TwinRequest r = inFlight.get(item >>> INDEX_BITS);
        return r == null || r.ended ? null : r;
    }

    /** Seconds stage {@code t} takes on server {@code s} at its class's speed (before a slowdown). */
    private double nominalSeconds(TwinModel model, int t, int s) {
        return model.ops(t) / servers.speed(s);
    }

    private double seconds(long epochMillis) {
        return (epochMillis - originMillis) / 1000.0;
    }

    private long millis(double seconds) {
        return originMillis + Math.round(seconds * 1000);
    }

    private static long item(long request, int index) {
        return (request << INDEX_BITS) | index;
    }

    private static int index(long item) {
        return (int) (item & ((1 << INDEX_BITS) - 1));
    }

    private static String trim(double x) {
        return x == Math.rint(x) ? String.valueOf((long) x) : String.valueOf(x);
    }
}
