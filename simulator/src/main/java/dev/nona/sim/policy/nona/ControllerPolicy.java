package dev.nona.sim.policy.nona;

import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementSampler;
import dev.nona.placement.PlacementTable;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.table.SimTable;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Nona as the controller deploys it: every job is placed by the controller's own code, policy-model's
 * {@link ControllerPlacement} over {@link LiveServers} (the class the Flink placement operator runs), from the
 * controller's form of the table (policy-model's {@code PlacementTable}, built from the optimiser's solution as the
 * controller builds it). The simulated servers report as the controller's agents do, every {@code reportSeconds}
 * of simulated time (0: before every job, exact telemetry): up, compute rate $\nu$, their ongoing requests and the
 * seconds of work placed on them and not done; every server holds every model warm. Between two reports each
 * placer's ledger predicts the servers' load from its own jobs.
 *
 * <p>With {@code placers > 1} the placement operator runs at that parallelism: each job is placed by one placer
 * drawn uniformly (requests are spread over subtasks by key), each with its own ledger and its own share of the
 * servers. Without counting its own requests ({@code countOwn = false}) it is the controller's rule on the reports
 * alone (as the controller was before it kept a ledger). A class the table does not place (background jobs, or
 * every class of a table without the controller's form) runs whole on one server by the same rule, as the
 * controller's fallback does. Every job this policy places is its decision, so its ledger counts it, background jobs
 * included: in the simulator every policy places every job (jsq places background jobs on exact queues too), and a
 * placer knows what it placed. (A ledger that skipped background jobs, as if someone else had placed them, was
 * measured to leave it 0.02&ndash;0.03% behind {@code jsq} at loads where both keep jobs whole.)
 *
 * <p><b>Heterogeneous servers.</b> Given a {@link Heterogeneity}, each server also reports its class, its memory and
 * the models it holds whole (from the engine's {@link ClusterView}), and its own speed; the placement then
 * weighs each server's backlog against a part's cold start at that server's speed and never puts a part where it does
 * not fit ({@code LiveServers.Rule.EXPECTED_FINISH}). As {@code nona-controller-uniform} (today's controller) every
 * server reports the mean speed, memory is only a filter and loads are not weighed ({@code Rule.WARM_FIRST}). On a
 * cluster of one class without memory both place exactly as without it.
 *
 * <p>Simulated time is passed to the placers in nanoseconds (the controller passes epoch milliseconds), so that
 * rounding does not perturb the ledger; the liveness clock (never expiring here) gets milliseconds. Not
 * thread-safe.
 */
public final class ControllerPolicy implements Policy {
    /** The ledger's clock: nanoseconds of simulated time. */
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private final SplittableRandom random;
    private final LiveServers[] placers;
    private final ControllerPlacement[] placements;
    /** Per class: where each simulator task is in the placement's output, or null: a local placement. */
    private final int[][] taskOf;
    private final boolean[] counted;
    private final double opsPerSecond;
    private final double reportSeconds;
    private final boolean countOwn;
    private final List<String> warm;
    private final Heterogeneity hetero;
    /** Per job class, its tasks in the simulator. */
    private final int[] taskCount;
    private String[] ids = new String[0];
    private double reportedAt = Double.NEGATIVE_INFINITY;

    /**
     * What the simulated cluster says beyond the paper's: per server its class name, per job class its tasks' bytes,
     * what a load costs, and whether the controller is the uniform one.
     *
     * @param serverClass per server its class's name, or null for a cluster of one class (no class is reported)
     * @param taskBytes   per job class the bytes of each of its tasks (in the simulator's task order), or null: 0
     * @param coldStart   what loading a part costs, or null (not modelled)
     * @param uniform     today's controller: the mean speed everywhere, memory only as a filter, loads not weighed
     */
    public record Heterogeneity(List<String> serverClass, double[][] taskBytes, ColdStartCost coldStart,
                                boolean uniform) {
        String classOf(int s) {
            return serverClass == null ? null : serverClass.get(s);
        }

        double[] bytesOf(int jobClass, int tasks) {
            return taskBytes == null ? new double[tasks] : taskBytes[jobClass].clone();
        }
    }

    /**
     * @param classes       the workload's job classes, in order
     * @param table         the table to place with (its controller form, when it has one)
     * @param opsPerSecond  every server's compute rate $\nu$, finite and {@code > 0}
     * @param reportSeconds how often every server reports (0: before every job), finite and {@code >= 0}
     * @param placers       placement subtasks sharing the servers, {@code >= 1}
     * @param countOwn      whether each placer counts its own requests between reports (the controller's ledger)
     */
    public ControllerPolicy(List<SimJobClass> classes, SimTable table, double opsPerSecond, double reportSeconds,
            int placers, boolean countOwn, SplittableRandom random) {
        this(classes, table, opsPerSecond, reportSeconds, placers, countOwn, null, random);
    }

    /** As {@link #ControllerPolicy(List, SimTable, double, double, int, boolean, SplittableRandom)} on a heterogeneous cluster (null: the paper's). */
    public ControllerPolicy(List<SimJobClass> classes, SimTable table, double opsPerSecond, double reportSeconds,
            int placers, boolean countOwn, Heterogeneity hetero, SplittableRandom random) {
        if (!(reportSeconds >= 0) || Double.isInfinite(reportSeconds)) {
            throw new IllegalArgumentException("telemetry report period (" + reportSeconds + " s) must be finite and >= 0");
        }
        if (!(opsPerSecond > 0) || Double.isInfinite(opsPerSecond)) {
            throw new IllegalArgumentException("server compute rate (" + opsPerSecond + " ops/s) must be finite and > 0");
        }
        if (placers < 1) {
            throw new IllegalArgumentException("placers (" + placers + ") must be >= 1");
        }
        this.random = random;
        this.opsPerSecond = opsPerSecond;
        this.reportSeconds = reportSeconds;
        this.countOwn = countOwn;
        this.hetero = hetero;
        this.placers = new LiveServers[placers];
        for (int i = 0; i < placers; i++) {
            this.placers[i] = new LiveServers(LiveServers.DEFAULT_TARGET_ONGOING_REQUESTS, i, placers,
                    LiveServers.NO_LIVENESS_TIMEOUT, NANOS_PER_SECOND);
            if (hetero != null) {
                this.placers[i].rule(hetero.uniform() ? LiveServers.Rule.WARM_FIRST : LiveServers.Rule.EXPECTED_FINISH);
                this.placers[i].coldStart(hetero.uniform() ? null : hetero.coldStart());
            }
        }
        SimTable.ControllerForm form = table.controllerForm();
        PlacementSampler sampler = form == null ? null : new PlacementSampler(form.table());
        if (form != null && hetero != null && !hetero.uniform()) {
            for (LiveServers placer : this.placers) {
                placer.idleGate(form.table().idleGate()); // the gate the table's predictions assume
            }
        }
        int n = classes.size();
        placements = new ControllerPlacement[n];
        taskOf = new int[n][];
        counted = new boolean[n];
        taskCount = new int[n];
        List<String> names = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            SimJobClass jc = classes.get(c);
            names.add(jc.name());
            taskCount[c] = jc.tasks();
            counted[c] = countOwn; // every job this policy places, background ones included, is its decision
            int[] at = form == null ? null : form.taskOf().get(c);
            if (at != null && sampler.modelIndex(jc.name()) >= 0) {
                PlacementTable.ModelPlacement model = form.table().model(jc.name());
                placements[c] = hetero == null
                        ? ControllerPlacement.of(sampler, jc.name(), opsByTask(jc, at, model))
                        : ControllerPlacement.of(sampler, jc.name(), opsByTask(jc, at, model),
                                byTask(hetero.bytesOf(c, jc.tasks()), at, model));
                taskOf[c] = at;
            } else {
                List<String> tasks = new ArrayList<>();
                double[] ops = new double[jc.tasks()];
                for (int t = 0; t < jc.tasks(); t++) {
                    tasks.add(Integer.toString(t));
                    ops[t] = jc.taskOps(t);
                }
                placements[c] = hetero == null
                        ? ControllerPlacement.local(jc.name(), tasks, jc.totalOps())
                        : ControllerPlacement.local(jc.name(), tasks, ops, hetero.bytesOf(c, jc.tasks()), 0);
            }
        }
        this.warm = List.copyOf(names);
    }

    /** Each simulator task's ops on the one original task that stands for it (the others 0: same server, same work). */
    private static Map<String, Double> opsByTask(SimJobClass jc, int[] at, PlacementTable.ModelPlacement model) {
        Map<String, Double> ops = new HashMap<>();
        model.tasks().forEach(t -> ops.put(t, 0.0));
        for (int t = 0; t < at.length; t++) {
            if (at[t] >= 0) {
                ops.put(model.tasks().get(at[t]), jc.taskOps(t));
            }
        }
        return ops;
    }

    /** Each simulator task's bytes on the one original task that stands for it (the others 0). */
    private static Map<String, Double> byTask(double[] bytes, int[] at, PlacementTable.ModelPlacement model) {
        Map<String, Double> out = new HashMap<>();
        for (int t = 0; t < at.length; t++) {
            if (at[t] >= 0) {
                out.put(model.tasks().get(at[t]), bytes[t]);
            }
        }
        return out;
    }

    @Override
    public void place(int classIndex, SimJobClass jobClass, ClusterView view, int[] servers) {
        double now = view.now();
        long nanos = Math.round(now * NANOS_PER_SECOND);
        if (ids.length != view.servers() || now - reportedAt >= reportSeconds) {
            report(view, nanos, Math.round(now * 1000));
            reportedAt = now;
        }
        if (hetero != null && view.memoryBounded()) {
            freeMemory(view, nanos);
        }
        LiveServers live = placers.length == 1 ? placers[0] : placers[random.nextInt(placers.length)];
        ControllerPlacement p = placements[classIndex];
        int[] out = counted[classIndex] ? p.place(live, nanos, random) : p.choose(live, nanos, random);
        int[] at = taskOf[classIndex];
        if (at == null) {
            Arrays.fill(servers, 0, jobClass.tasks(), out[0]);
            return;
        }
        for (int t = 0; t < at.length; t++) {
            if (at[t] >= 0) {
                servers[t] = out[at[t]];
            }
        }
        // virtual source and sink: where the placement stood the chain's first root and last sink
        int[] roots = p.rootServers();
        List<SimSubgraph> subgraphs = jobClass.subgraphs();
        for (int g = 0; g < subgraphs.size(); g++) {
            if (at[subgraphs.get(g).root()] < 0) {
                servers[subgraphs.get(g).root()] = roots[g];
            }
            if (at[subgraphs.get(g).sink()] < 0) {
                servers[subgraphs.get(g).sink()] = roots[g + 1];
            }
        }
    }

    /** Every server reports to every placer: up, $\nu$, its ongoing requests and backlog, every model warm. */
    private void report(ClusterView view, long nanos, long millis) {
        int n = view.servers();
        if (ids.length != n) {
            ids = new String[n];
            for (int s = 0; s < n; s++) {
                ids[s] = "s" + s;
            }
        }
        if (hetero != null) {
            reportHeterogeneous(view, nanos, millis);
            return;
        }
        for (LiveServers live : placers) {
            for (int s = 0; s < n; s++) {
                live.report(ids[s], true, opsPerSecond, view.assignedJobs(s), view.assignedWorkSeconds(s), warm, nanos, millis);
            }
        }
    }

    /**
     * As {@link #report}, each server also with its class, memory (and what of it a new part may use now), the models
     * it holds whole ({@link #held}; every model while caches are off) and, unless uniform, its own speed.
     */
    private void reportHeterogeneous(ClusterView view, long nanos, long millis) {
        boolean caches = view.memoryBounded() || hetero.coldStart() != null;
        for (int s = 0; s < view.servers(); s++) {
            double nu = view.opsPerSecond(s);
            double ops = hetero.uniform() || !(nu > 0) ? opsPerSecond : nu;
            List<String> held = caches ? held(view, s) : warm;
            double memory = view.memoryBounded() ? view.memoryBytes(s) : ServerClass.UNBOUNDED;
            for (LiveServers live : placers) {
                int i = live.report(ids[s], true, ops, view.assignedJobs(s), view.assignedWorkSeconds(s), held,
                        hetero.classOf(s), memory, nanos, millis);
                if (view.memoryBounded()) {
                    live.freeMemoryBytes(i, Math.min(memory, view.freeMemoryBytes(s)), nanos);
                }
                if (live.holdsParts(i)) {
                    int server = s;
                    live.heldBytes(i, model -> heldBytes(view, server, model));
                }
            }
        }
    }

    /**
     * Each server's memory a new part may use now, before every job: the engine knows it exactly (what running parts
     * pin changes with every task), as it knows the queues that {@code jsq} reads. $O(N)$ per job.
     */
    private void freeMemory(ClusterView view, long nanos) {
        for (LiveServers live : placers) {
            for (int s = 0; s < view.servers(); s++) {
                live.freeMemoryBytes(live.indexOf(ids[s]), Math.min(view.memoryBytes(s), view.freeMemoryBytes(s)), nanos);
            }
        }
    }

    /**
     * The bytes of {@code model} that server {@code s} holds (loaded or loading), as a server's report gives them: what
     * the controller checks the parts it sent there against ({@link LiveServers#heldBytes}).
     */
    private double heldBytes(ClusterView view, int s, String model) {
        int c = warm.indexOf(model);
        if (c < 0 || hetero.taskBytes() == null) {
            return 0;
        }
        double[] bytes = hetero.taskBytes()[c];
        double sum = 0;
        for (int t = 0; t < taskCount[c]; t++) {
            if (bytes[t] > 0 && view.holds(s, c, t)) {
                sum += bytes[t];
            }
        }
        return sum;
    }

    /**
     * The models server {@code s} holds whole: every task with weights loaded or loading. A server holding only some
     * of a model's tasks (least-recently-used eviction takes tasks one by one; a split request leaves one part) is not
     * warm for it: a whole-model pick there loads the rest. Reporting such a server warm, as an earlier version did,
     * made the pick take cold starts it did not predict: on {@code examples/hetero.json} at load 0.6, 0.251 s mean
     * JCT against 0.223 s whole-model (3,000 jobs, seed 1); {@code memory-bound} at 0.8, 0.748 s against 0.432 s.
     */
    private List<String> held(ClusterView view, int s) {
        List<String> out = new ArrayList<>();
        for (int c = 0; c < placements.length; c++) {
            boolean all = true;
            for (int t = 0; t < taskCount[c] && all; t++) {
                all = view.holds(s, c, t);
            }
            if (all) {
                out.add(warm.get(c));
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return (hetero == null ? "" : hetero.uniform() ? "uniform " : "heterogeneous ") + "controller(" + (reportSeconds > 0 ? "reports every " + reportSeconds + " s" : "exact")
                + (placers.length > 1 ? ", " + placers.length + " placers" : "") + (countOwn ? "" : ", no ledger") + ")";
    }
}
