package dev.nona.placement;

import dev.nona.check.Checks;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The controller's per-request placement of one model: a server for every original task of the model's DAG, on
 * {@link LiveServers}, recorded in their ledger. Under a table ({@link #of}): the source on a server chosen warm
 * first, a choice per subgraph sampled from $\theta_t$ in $O(1)$ ({@link PlacementSampler}), the other parts on
 * distinct servers (warm first), the sink on its part's server. Without one ({@link #local}, the controller's
 * fallback before its first table, for a model the table does not cover, and when no table is stable): the whole
 * request on one server, warm first.
 *
 * <p>The Flink placement operator ({@code NonaPlacer} and {@code LocalPlacer} in {@code flink-jobs}) and the
 * simulator's controller policies ({@code nona-controller}, {@code nona-controller-p2}, {@code nona-stale}) both
 * place through this class, so a result about one is a result about the other.
 *
 * <p>Based on: Nona (CloudNet 2024), Section III-A (online scheduling), with the thesis's warm-first mapping.
 * With a {@link PlacementExplanation}, {@link #place} also says why: per part (the request's stages on one
 * server) warm or cold, predicted backlog and ongoing requests against the target, the triplets drawn with their
 * probability, and the request's own predicted JCT.
 *
 * <p><b>Memory, speed classes and cold starts.</b> Once a server's reports give its class or memory
 * ({@link LiveServers#describesMemory}), each part is placed knowing its operations and bytes over the whole request
 * ({@link PlacementSampler#placeSized}): only on a live server it fits beside the request's other parts there, by
 * {@link LiveServers.Rule} (the least marginal cost: the predicted finish, weighing the server's backlog against the
 * part's load when the server does not hold the model, at the server's own speed, plus the delay the part adds to the
 * requests there; or today's warm-first rule with memory as a
 * filter). A part that fits no live server is a {@link PartDoesNotFitException}. The request is recorded with each
 * predicted cold start as work on its server ({@link #withLoads}), so the ledger's backlog counts the load. Without
 * class or memory, placement is exactly as before (same picks, same random stream, same ledger). A model larger than
 * every live server (a chain the optimiser cut, {@code dag.MemoryCut}, or a model of several subgraphs whose chains
 * it kept within the largest memory, {@code optimize.PartFit#chainBudgets}) is placed part by part, each part (a
 * server's slot of the request) by a warm pool of its own, named by its tasks ({@link LiveServers#loadingPart}: no
 * report names the parts a server holds), first where it evicts none of the model's other parts.
 *
 * <p>{@link #place} is $O(\text{tasks} \cdot \log N)$ and does not allocate (with class or memory: $O(\text{parts}
 * \cdot N)$). Not thread-safe (scratch arrays): one per placer.
 */
public final class ControllerPlacement implements ServerPolicy {
    private static final int[] NONE = new int[0];
    private final PlacementSampler sampler;
    private final int modelIndex;
    private final String model;
    private final List<String> tasks;
    /** A server per original task, in {@link #tasks}' order; reused by every request. */
    private final int[] out;
    /** Operations of each task in {@link #tasks}' order; for a local placement one entry: the whole DAG's. */
    private final double[] ops;
    /** {@link #ops} with the latest request's predicted cold starts as work ({@link #withLoads}); reused. */
    private final double[] loaded;
    /** The seconds of predicted cold start in each entry of {@link #loaded} (0: none); reused. */
    private final double[] loads;
    /** The server of each root of the chain, then the last sink, of the latest request. */
    private final int[] roots;
    /** The triplet drawn for each subgraph of the latest request. */
    private final int[] choices;
    /** {@link #predictedJctSeconds()} under a table: the table's $\tau_j$ (0 when not finite). */
    private final double tableJct;
    /** {@link #predictedJctSeconds()} of a local placement: its latest request's (or the expected one's) JCT. */
    private double localJct;
    /** Bytes of each task in {@link #tasks}' order (0: not given). */
    private final double[] bytes;
    /** Operations of each task in {@link #tasks}' order (a local placement's {@link #ops} is their sum). */
    private final double[] taskOps;
    private final double totalBytes;
    private final int largestTask;
    /** The bytes of the latest request on each server it uses (with class or memory). */
    private final Footprint footprint = new Footprint();
    /** {@link #footprint} with the model's other parts this placer knows on each server ({@link #byPart}). */
    private final Footprint besideParts = new Footprint();
    private LiveServers servers;
    private long eventTime;
    private int warm;
    /**
     * Whether the latest request's parts were placed by warm pools of their own ({@link #partPool}): a model larger
     * than every live server, which its table splits into parts, none of which a report can call warm.
     */
    private boolean byPart;
    /** Per combination of choices, the names of its parts' warm pools ({@link #partPool}); built when needed. */
    private final Map<Long, String[]> partPoolNames = new HashMap<>();
    /** The names of the latest request's parts' warm pools ({@link #partPool}, found for its first part). */
    private String[] requestPartNames;
    /** The latest request's parts placed so far: their server, pool and bytes, in the order they were placed. */
    private int[] partServer = new int[4];
    private int[] partPool = new int[4];
    private double[] partBytes = new double[4];
    /** Per part placed, its server's predicted backlog before the request (seconds): when the part starts to run. */
    private double[] partStartsIn = new double[4];
    private int partsPlaced;

    private ControllerPlacement(PlacementSampler sampler, int modelIndex, String model, List<String> tasks, double[] ops,
            double[] taskOps, double[] bytes, double expectedOpsPerSecond) {
        this.sampler = sampler;
        if (bytes.length != tasks.size() || taskOps.length != tasks.size()) {
            throw new IllegalArgumentException("model '" + model + "': " + tasks.size() + " tasks but " + taskOps.length
                    + " ops and " + bytes.length + " sizes");
        }
        double total = 0;
        for (int t = 0; t < bytes.length; t++) {
            Checks.nonNegative(bytes[t], "sizeBytes of task '" + tasks.get(t) + "' of model '" + model + "'");
            total += bytes[t];
        }
        this.bytes = bytes;
        this.taskOps = taskOps;
        this.totalBytes = total;
        this.largestTask = Placeability.largestTask(bytes);
        this.modelIndex = modelIndex;
        this.model = model;
        this.tasks = List.copyOf(tasks);
        this.out = new int[Math.max(1, tasks.size())];
        this.ops = ops;
        this.loaded = new double[ops.length];
        this.loads = new double[ops.length];
        this.roots = new int[sampler == null ? 1 : sampler.subgraphs(modelIndex) + 1];
        this.choices = new int[roots.length - 1];
        double jct = sampler == null ? 0 : sampler.table().models().get(modelIndex).predictedJctSeconds();
        this.tableJct = Double.isFinite(jct) ? jct : 0;
        this.localJct = sampler == null ? localJctSeconds(ops[0], expectedOpsPerSecond) : 0;
    }

    /**
     * Placement of {@code model} by {@code sampler}'s table.
     *
     * @param opsByTask the operations $p^t$ of each of the model's original tasks (at least the table's tasks)
     * @throws IllegalArgumentException when the table does not know the model, or a task of the table has no ops
     */
    public static ControllerPlacement of(PlacementSampler sampler, String model, Map<String, Double> opsByTask) {
        return of(sampler, model, opsByTask, Map.of());
    }

    /**
     * As {@link #of(PlacementSampler, String, Map)}, with the bytes of each task ({@code dag.TaskBytes}; a task not in
     * {@code bytesByTask} weighs 0).
     */
    public static ControllerPlacement of(PlacementSampler sampler, String model, Map<String, Double> opsByTask,
            Map<String, Double> bytesByTask) {
        int m = sampler.modelIndex(model);
        if (m < 0) {
            throw new IllegalArgumentException("model '" + model + "' is not in the table");
        }
        List<String> tasks = sampler.tasks(m);
        double[] ops = new double[tasks.size()];
        for (int i = 0; i < ops.length; i++) {
            Double o = opsByTask.get(tasks.get(i));
            if (o == null) {
                throw new IllegalArgumentException("task '" + tasks.get(i) + "' of the table is not in the DAG of model '"
                        + model + "'");
            }
            ops[i] = o;
        }
        double[] bytes = new double[tasks.size()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = bytesByTask.getOrDefault(tasks.get(i), 0.0);
        }
        return new ControllerPlacement(sampler, m, model, tasks, ops, ops, bytes, 0);
    }

    /**
     * The fallback placement of {@code model}: every one of {@code tasks} on one server, warm first. Its predicted
     * JCT is 0 until its first request.
     *
     * @param totalOps the operations of the whole DAG, finite and {@code >= 0}
     */
    public static ControllerPlacement local(String model, List<String> tasks, double totalOps) {
        return local(model, tasks, totalOps, 0);
    }

    /**
     * As {@link #local(String, List, double)}, its predicted JCT before its first request taken at
     * {@code expectedOpsPerSecond} (no server is chosen yet; the controller passes the live servers' mean).
     *
     * @param totalOps the operations of the whole DAG, finite and {@code >= 0}
     */
    public static ControllerPlacement local(String model, List<String> tasks, double totalOps,
            double expectedOpsPerSecond) {
        Checks.nonNegative(totalOps, "operations of model '" + model + "'");
        double[] each = new double[tasks.size()];
        if (each.length > 0) {
            each[0] = totalOps;
        }
        return new ControllerPlacement(null, -1, Objects.requireNonNull(model, "model"), tasks, new double[] {totalOps},
                each, new double[tasks.size()], expectedOpsPerSecond);
    }

    /**
     * As {@link #local(String, List, double, double)}, with each task's operations and bytes (in {@code tasks}'
     * order): the whole request goes to one server it fits.
     */
    public static ControllerPlacement local(String model, List<String> tasks, double[] taskOps, double[] taskBytes,
            double expectedOpsPerSecond) {
        double total = 0;
        for (double o : taskOps) {
            total += o;
        }
        Checks.nonNegative(total, "operations of model '" + model + "'");
        return new ControllerPlacement(null, -1, Objects.requireNonNull(model, "model"), tasks, new double[] {total},
                taskOps.clone(), taskBytes.clone(), expectedOpsPerSecond);
    }

    /** The bytes of each task, in {@link #tasks}' order (0: not given). A copy. */
    public double[] taskBytes() {
        return bytes.clone();
    }

    /** The model's largest task: its index in {@link #tasks}, -1 when it has none. */
    public int largestTask() {
        return largestTask;
    }

    /** The bytes of the model's largest task (0 when none is given). */
    public double largestTaskBytes() {
        return largestTask < 0 ? 0 : bytes[largestTask];
    }

    /**
     * Whether the model's largest task fits no live server ({@link Placeability#unplaceable}): its requests cannot be
     * placed. $O(1)$ unless a server's memory or liveness changed.
     */
    public boolean unplaceable(LiveServers servers) {
        return Placeability.unplaceable(servers, largestTaskBytes());
    }

    /**
     * Whether this placement has no table to split the model (it places each request whole, {@link #local}) while no
     * live server can hold the model whole, though each task fits one ({@link Placeability#onlySplit}): a table that
     * splits the model into parts would place its requests, this placement cannot.
     */
    public boolean awaitsSplit(LiveServers servers) {
        return sampler == null && Placeability.onlySplit(servers, totalBytes, largestTaskBytes());
    }

    /** The dead letter's reason when {@link #unplaceable}. */
    public String unplaceableReason(LiveServers servers) {
        return Placeability.reason(model, tasks.get(largestTask), largestTaskBytes(), servers.largestLiveMemoryBytes());
    }

    /**
     * A local request's predicted JCT: the whole DAG's compute on one server, $\sum_t p^t / \nu_s$ (no transfer, no
     * queue: the backlog is added by the caller); 0 when $\nu_s$ is not above 0.
     */
    private static double localJctSeconds(double totalOps, double opsPerSecond) {
        return opsPerSecond > 0 ? totalOps / opsPerSecond : 0;
    }

    /** The model it places. */
    public String model() {
        return model;
    }

    /** The original task ids, in the order of {@link #place}'s servers. */
    public List<String> tasks() {
        return tasks;
    }

    /** Whether it places by a table (else locally, on one server). */
    public boolean distributed() {
        return sampler != null;
    }

    /**
     * The predicted job completion time in seconds, without backlog. Under a table its $\tau_j$ (0 when it has none).
     * For a local placement the latest request's compute on the server it was given, $\sum_t p^t / \nu_s$ with that
     * server's (learned) rate $\nu_s$; before the first request, at the expected rate it was built with (else 0).
     */
    public double predictedJctSeconds() {
        return sampler == null ? localJct : tableJct;
    }

    /**
     * Places one request of event time {@code eventTime} (epoch ms) and records it in {@code servers}' ledger.
     *
     * @return a server index of {@code servers} per original task, in {@link #tasks}' order (at least one entry):
     *         an array this object reuses for the next request (copy what you keep)
     * @throws IllegalStateException when no server is up
     */
    public int[] place(LiveServers servers, long eventTime, RandomGenerator rng) {
        return place(servers, eventTime, rng, null);
    }

    /**
     * As {@link #place(LiveServers, long, RandomGenerator)}, also filling {@code why} (when not null) with the
     * request's explanation: its parts with their facts at the pick, before the request is recorded, its triplets
     * and their probability, and its own predicted JCT ({@link PlacementExplanation}). $O(\text{tasks} \cdot
     * \text{parts})$ more; does not allocate once {@code why} has grown to the model's size.
     */
    public int[] place(LiveServers servers, long eventTime, RandomGenerator rng, PlacementExplanation why) {
        choose(servers, eventTime, rng);
        if (why != null) {
            explain(servers, eventTime, why);
        }
        boolean sized = servers.describesMemory();
        double[] work = sized ? withLoads(servers) : ops;
        for (int i = 0; byPart && i < partsPlaced; i++) {
            partStartsIn[i] = servers.backlogSeconds(partServer[i], eventTime);
        }
        servers.record(out, work, sized ? loads : null, sampler == null ? 1 : out.length, eventTime);
        if (byPart) {
            for (int i = 0; i < partsPlaced; i++) {
                servers.loadingPart(partServer[i], partPool[i], model, partBytes[i], eventTime, partStartsIn[i]);
            }
        } else if (servers.describesMemory() && !servers.isWarmFor(out[0], warm) && wholeOn(out[0])) {
            servers.loading(out[0], model);
        }
        return out;
    }

    /** Whether every task of the latest request is on server {@code s} (the whole model goes there). */
    private boolean wholeOn(int s) {
        for (int t = 0; sampler != null && t < out.length; t++) {
            if (out[t] != s) {
                return false;
            }
        }
        return true;
    }

    /**
     * The operations to record for the latest request, with each predicted cold start as work: a server that does not
     * hold the model first spends $T_{CS}(b) = F + b/B$ loading the request's $b$ bytes there before it computes (the
     * engine loads when the part's first task starts, so the load adds to the server's backlog), recorded as
     * $T_{CS}(b)\,
u_s$ operations on the part's first task so that the ledger's backlog $B_s$ counts it. Reused.
     */
    private double[] withLoads(LiveServers servers) {
        int n = sampler == null ? 1 : out.length;
        System.arraycopy(ops, 0, loaded, 0, n);
        Arrays.fill(loads, 0, n, 0);
        for (int t = 0; t < n; t++) {
            int s = out[t];
            if (usedBefore(s, t) || warmOn(servers, s)) {
                continue;
            }
            double b = sampler == null ? totalBytes : 0;
            if (slotsOn(s) > 1) { // parts of several subgraphs: only the cold ones load
                for (int i = 0; i < partsPlaced; i++) {
                    b += partServer[i] == s && !servers.isWarmFor(s, partPool[i]) ? partBytes[i] : 0;
                }
            } else {
                for (int u = t; sampler != null && u < n; u++) {
                    b += out[u] == s ? bytes[u] : 0;
                }
            }
            double seconds = servers.coldStartSeconds(b);
            if (seconds > 0) {
                int u = firstWithOps(s, t, n);
                loaded[u] += seconds * servers.opsPerSecond(s);
                loads[u] += seconds;
            }
        }
        return loaded;
    }

    /** Whether a task before {@code t} of the latest request is on server {@code s}. */
    private boolean usedBefore(int s, int t) {
        for (int u = 0; u < t; u++) {
            if (out[u] == s) {
                return true;
            }
        }
        return false;
    }

    /** The first task on server {@code s} with operations (the ledger skips tasks of none), else {@code t}. */
    private int firstWithOps(int s, int t, int n) {
        for (int u = t; u < n; u++) {
            if (out[u] == s && ops[u] != 0) {
                return u;
            }
        }
        return t;
    }

    /**
     * As {@link #place} without recording the request in the ledger: the rule on the reports alone (the
     * simulator's {@code nona-stale}, and jobs that are not the controller's to count).
     */
    public int[] choose(LiveServers servers, long eventTime, RandomGenerator rng) {
        this.warm = servers.warm(model); // kept for explain(): one look-up per request
        byPart = false;
        partsPlaced = 0;
        if (servers.describesMemory()) {
            return chooseSized(servers, eventTime, rng);
        }
        if (sampler == null) {
            Arrays.fill(out, servers.pickOther(warm, NONE, 0, eventTime, rng));
            roots[0] = out[0];
            localJct = localJctSeconds(ops[0], servers.opsPerSecond(out[0]));
            return out;
        }
        this.servers = servers;
        this.eventTime = eventTime;
        sampler.place(modelIndex, this, rng, out, roots, choices);
        return out;
    }

    /** {@link #choose} once servers give their class or memory: each part knowing its operations and bytes. */
    private int[] chooseSized(LiveServers servers, long eventTime, RandomGenerator rng) {
        footprint.clear();
        servers.modelBytes(warm, totalBytes);
        this.servers = servers;
        this.eventTime = eventTime;
        byPart = sampler != null && !(totalBytes <= servers.largestLiveMemoryBytes());
        if (sampler == null) {
            int s = servers.pickPart(warm, NONE, 0, ops[0], totalBytes, footprint, eventTime, rng);
            if (s < 0) {
                throw new PartDoesNotFitException("model '" + model + "' (" + (long) totalBytes
                        + " bytes) fits no live server whole (largest " + (long) servers.largestLiveMemoryBytes()
                        + " bytes) and has no table to split it");
            }
            Arrays.fill(out, s);
            roots[0] = s;
            localJct = localJctSeconds(ops[0], servers.opsPerSecond(s));
            return out;
        }
        sampler.placeSized(modelIndex, this, rng, out, roots, choices, taskOps, bytes);
        return out;
    }

    /** A server for a part of the current request that fits, recorded in its footprint. */
    private int fitting(int[] taken, int n, double partOps, double partBytes, RandomGenerator rnd) {
        int pool = warm;
        int s = -1;
        if (byPart) { // first where it evicts none of the model's other parts, which would have to load again
            pool = servers.pool(partPool(partsPlaced));
            servers.modelBytes(pool, partBytes);
            besideParts.copyOf(footprint, servers.otherParts(model, pool, eventTime));
            s = servers.pickPart(pool, taken, n, partOps, partBytes, besideParts, eventTime, rnd);
        }
        if (s < 0) {
            s = servers.pickPart(pool, taken, n, partOps, partBytes, footprint, eventTime, rnd);
        }
        if (s < 0) {
            throw new PartDoesNotFitException("a part of model '" + model + "' (" + (long) partBytes
                    + " bytes) fits no live server beside the request's other parts");
        }
        footprint.add(s, partBytes);
        if (partsPlaced == partServer.length) {
            partServer = Arrays.copyOf(partServer, 2 * partsPlaced);
            partPool = Arrays.copyOf(partPool, 2 * partsPlaced);
            this.partBytes = Arrays.copyOf(this.partBytes, 2 * partsPlaced);
            partStartsIn = Arrays.copyOf(partStartsIn, 2 * partsPlaced);
        }
        partServer[partsPlaced] = s;
        partPool[partsPlaced] = pool;
        this.partBytes[partsPlaced++] = partBytes;
        return s;
    }

    /**
     * The name of the warm pool of the latest request's {@code i}-th part to be placed (slot by slot, in
     * {@link PlacementSampler#placeSized}'s order) under its drawn choices: one pool per part, named by the tasks it
     * runs ({@link #partName}), so that a part is the same pool in every choice and every table that has it: a server
     * that loaded it is warm for it under the next table too. Names are built once per combination of choices
     * (while the combinations can be numbered in a {@code long}; else per request).
     */
    private String partPool(int i) {
        if (i > 0) {
            return requestPartNames[i];
        }
        long key = 0;
        for (int g = 0; g < choices.length && key >= 0; g++) {
            int n = sampler.choiceCount(modelIndex, g);
            key = key > (Long.MAX_VALUE - choices[g]) / n ? -1 : key * n + choices[g];
        }
        String[] names = key < 0 ? null : partPoolNames.get(key);
        if (names == null) {
            names = sampler.slotTasks(modelIndex, choices).stream().map(tasks -> partName(model, tasks))
                    .toArray(String[]::new);
            if (key >= 0) {
                partPoolNames.put(key, names);
            }
        }
        requestPartNames = names;
        return names[0];
    }

    /** The warm pool name of a part of {@code model} that runs {@code tasks} (sorted ids): the model and those ids. */
    static String partName(String model, List<String> tasks) {
        return model + "\u0000part " + String.join(",", tasks);
    }

    /**
     * Whether server {@code s} holds what the latest request runs there: the model, or (placed by part) every part of
     * the request on it (parts of different subgraphs may share a server).
     */
    private boolean warmOn(LiveServers servers, int s) {
        if (!byPart) {
            return servers.isWarmFor(s, warm);
        }
        for (int i = 0; i < partsPlaced; i++) {
            if (partServer[i] == s && !servers.isWarmFor(s, partPool[i])) {
                return false;
            }
        }
        return true;
    }

    /** How many of the latest request's parts placed by part are on server {@code s} (0 when not by part). */
    private int slotsOn(int s) {
        int n = 0;
        for (int i = 0; byPart && i < partsPlaced; i++) {
            n += partServer[i] == s ? 1 : 0;
        }
        return n;
    }

    /** {@inheritDoc} The request's source, on a server its whole part fits (with class or memory). */
    @Override
    public int sourceServer(int model, double partOps, double partBytes, RandomGenerator rnd) {
        return fitting(NONE, 0, partOps, partBytes, rnd);
    }

    /** {@inheritDoc} A further part, on a server it fits beside the request's other parts there. */
    @Override
    public int partServer(int model, int[] taken, int takenCount, double partOps, double partBytes,
            RandomGenerator rnd) {
        return fitting(taken, takenCount, partOps, partBytes, rnd);
    }

    /** Fills {@code why} from the latest {@link #choose}, before the request is recorded in the ledger. */
    private void explain(LiveServers servers, long eventTime, PlacementExplanation why) {
        why.reset(out.length, choices.length, servers.targetOngoingRequests());
        int pool = warm; // as choose() found it: no report comes in between
        int last = -1;
        int p = -1;
        for (int t = 0; t < out.length; t++) {
            int s = out[t];
            if (s != last) { // a part's tasks are mostly consecutive
                last = s;
                p = why.partOfServer(s);
                if (p < 0) {
                    p = why.addPart(s, byPart ? warmOn(servers, s) : servers.isWarm(s, pool), servers.backlogSeconds(s, eventTime),
                            servers.ongoing(s, eventTime));
                }
            }
            why.assignTask(t, p, t < bytes.length ? bytes[t] : 0);
        }
        if (servers.describesMemory()) {
            why.describe(servers);
        }
        for (int g = 0; g < choices.length; g++) {
            why.choice(g, choices[g], sampler.choiceProbability(modelIndex, g, choices[g]));
        }
        why.tableJctSeconds(predictedJctSeconds());
    }

    /**
     * The latest request's server of every root of the model's chain of subgraphs, then of its last sink (where a
     * virtual source or sink, which has no original task, stands); one entry for a local placement. Reused.
     */
    public int[] rootServers() {
        return roots;
    }

    /** {@inheritDoc} The request's source: warm first. */
    @Override
    public int sourceServer(int model, RandomGenerator rnd) {
        return servers.pickOther(warm, NONE, 0, eventTime, rnd);
    }

    /** {@inheritDoc} A further part: warm first, distinct from the request's parts so far. */
    @Override
    public int partServer(int model, int[] taken, int takenCount, RandomGenerator rnd) {
        return servers.pickOther(warm, taken, takenCount, eventTime, rnd);
    }
}
