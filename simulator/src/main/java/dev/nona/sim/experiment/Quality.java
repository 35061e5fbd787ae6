package dev.nona.sim.experiment;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.policy.live.ColocationJobPolicy;
import dev.nona.sim.report.Charts;
import dev.nona.sim.workload.SimWorkloads;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The controller's quality check: the controller's policy ({@value #CONTROLLER}) against the best of the schedulers a
 * user would otherwise pick ({@link #BASELINES}) and against {@value #EXPERT} (a search with the live mapping), at
 * loads 0.1-0.9, over several seeds, on three workloads ({@link #WORKLOADS}). Writes {@code quality.csv} (one row
 * per workload, load, seed and policy), a plot per workload, and {@code summary.md} ({@link QualitySummary}).
 *
 * <p>Every policy at a point runs with the same seed, so it sees the same arrivals (the simulator's arrival
 * streams depend on the seed and the class only). The points (workload, load) are independent and run on a fixed
 * pool of threads; each owns its {@link Scenario} (solvers and table caches are not thread-safe), and the rows are
 * collected in the points' order, so the output does not depend on the number of threads (wall times aside).
 */
public final class Quality implements Experiment {
    static final String CONTROLLER = "nona-controller";
    static final String EXPERT = "expert-jsq";
    static final List<String> BASELINES = List.of("random", "opportunistic", "spark-fair", "jsq");
    static final List<String> POLICIES = Stream.concat(Stream.of(CONTROLLER, EXPERT), BASELINES.stream()).toList();
    static final double[] LOADS = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
    static final List<QualityWorkload> WORKLOADS = List.of(
            new QualityWorkload("zoo", Path.of("examples/zoo.json"), false),
            new QualityWorkload("paper-regime", Path.of("examples/paper-regime.json"), true),
            new QualityWorkload("pipedream-batch-bytes", Path.of("examples/pipedream-batch-bytes.json"), false));
    /** The controller with one mean speed and memory only as a filter: the "before" of the heterogeneous workloads. */
    static final String UNIFORM = "nona-controller-uniform";
    /** The baselines of the heterogeneous/memory workloads (goal (a) there). */
    static final List<String> MEMORY_BASELINES = List.of("random", "jsq", "p2c", "spark-fair", "least-expected-finish",
            ColocationJobPolicy.NAME, ColocationJobPolicy.QUEUING_NAME);
    /** The thesis's colocation policies among the baselines: goal (d) compares cold starts with theirs. */
    static final List<String> COLOCATION = List.of(ColocationJobPolicy.NAME, ColocationJobPolicy.QUEUING_NAME);
    /**
     * Without {@value #EXPERT}: its search took 15-145 s per point on these workloads on the shared machine, and no goal
     * of theirs reads it.
     */
    static final List<String> MEMORY_POLICIES = Stream.concat(Stream.of(CONTROLLER, UNIFORM), MEMORY_BASELINES.stream()).toList();
    /** Server classes, memory and cold starts; their rows go to {@code quality-memory.csv}. */
    static final List<QualityWorkload> MEMORY_WORKLOADS = List.of(
            new QualityWorkload("hetero", Path.of("examples/hetero.json"), false, true),
            new QualityWorkload("memory-bound", Path.of("examples/memory-bound.json"), false, true));
    /** The environment variable naming the workloads to run, comma-separated (unset: all of them). */
    static final String SELECT = "NONA_QUALITY_WORKLOADS";

    private final List<QualityWorkload> workloads;
    private final double[] loads;
    private final int threads;
    private final String sharedDags;

    public Quality() {
        this(selected(System.getenv(SELECT)), LOADS, Runtime.getRuntime().availableProcessors(), System.getenv(QualityWorkload.SHARED_DAGS));
    }

    /** Every workload ({@link #WORKLOADS}, then {@link #MEMORY_WORKLOADS}), or those named in {@code names} (comma-separated). */
    static List<QualityWorkload> selected(String names) {
        List<QualityWorkload> all = Stream.concat(WORKLOADS.stream(), MEMORY_WORKLOADS.stream()).toList();
        if (names == null || names.isBlank()) {
            return all;
        }
        List<QualityWorkload> out = new ArrayList<>();
        for (String n : names.split(",")) {
            String name = n.trim();
            out.add(all.stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                    SELECT + ": unknown workload '" + name + "' (known: "
                            + all.stream().map(QualityWorkload::name).collect(java.util.stream.Collectors.joining(", ")) + ")")));
        }
        return out;
    }

    /** With other workloads, loads, threads, or folder of PipeDream graphs (null: none). */
    Quality(List<QualityWorkload> workloads, double[] loads, int threads, String sharedDags) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads (" + threads + ") must be >= 1");
        }
        this.workloads = List.copyOf(workloads);
        this.loads = loads.clone();
        this.threads = threads;
        this.sharedDags = sharedDags;
    }

    @Override
    public String name() {
        return "quality";
    }

    @Override
    public String description() {
        return "the controller's quality check: nona-controller vs the best of random/opportunistic/spark-fair/jsq and vs expert-jsq, loads 0.1-0.9, "
                + "--seeds seeds, on zoo, paper-regime (cluster load) and pipedream-batch-bytes (needs the PipeDream graphs); "
                + "and on hetero and memory-bound (server classes, memory, cold starts) vs random/jsq/p2c/spark-fair/least-expected-finish "
                + "and nona-controller-uniform; " + SELECT + "=a,b runs only those workloads";
    }

    @Override
    public void run(ExperimentContext ctx) {
        if (ctx.clusterLoad()) {
            throw new IllegalArgumentException("quality reads each workload's load its own way (paper-regime over the cluster, "
                    + "the others per server); drop --cluster-load");
        }
        List<SimWorkloads.Loaded> loaded = workloads.stream().map(w -> w.load(sharedDags)).toList();
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < workloads.size(); i++) {
            for (double load : loads) {
                points.add(new Point(workloads.get(i), loaded.get(i), load));
            }
        }
        ctx.progress(String.format(Locale.ROOT, "quality: %d points x %d seeds x up to %d policies, %d jobs each, on %d threads",
                points.size(), ctx.seeds(), MEMORY_POLICIES.size(), ctx.jobs(), threads));
        List<PointResult> all = runAll(ctx, points);
        for (QualityWorkload w : workloads) {
            List<QualityRow> rows = all.stream().filter(r -> r.point().workload().equals(w)).flatMap(r -> r.rows().stream()).toList();
            plot(w, rows).write(ctx.out().resolve("quality-" + w.name() + ".png"));
        }
        List<PointResult> results = all.stream().filter(r -> !r.point().workload().memory()).toList();
        if (!results.isEmpty()) {
            List<QualityRow> rows = results.stream().flatMap(r -> r.rows().stream()).toList();
            Path csv = ctx.out().resolve("quality.csv");
            QualityRow.write(rows, csv);
            new QualitySummary(workloads.stream().filter(w -> !w.memory()).toList(), QualityRow.read(csv), results).write(ctx);
            ctx.writeSummary("Quality everywhere: " + CONTROLLER + " at every load, workload and seed");
        }
        List<PointResult> memory = all.stream().filter(r -> r.point().workload().memory()).toList();
        if (!memory.isEmpty()) {
            List<QualityMemoryRow> rows = memory.stream().flatMap(r -> r.memoryRows().stream()).toList();
            QualityMemoryRow.write(rows, ctx.out().resolve("quality-memory.csv"));
            new QualityMemorySummary(workloads.stream().filter(QualityWorkload::memory).toList(), rows, memory)
                    .write(ctx, ctx.out().resolve("memory-summary.md"));
        }
    }

    /** One (workload, load) of the grid. */
    record Point(QualityWorkload workload, SimWorkloads.Loaded loaded, double load) {
    }

    /** A point's rows (seeds x policies) and its wall-clock costs. */
    record PointResult(Point point, List<QualityRow> rows, List<QualityMemoryRow> memoryRows, double solveSeconds,
                       double simulateSeconds) {
    }

    private List<PointResult> runAll(ExperimentContext ctx, List<Point> points) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<PointResult>> futures = new ArrayList<>();
            for (Point p : points) {
                futures.add(pool.submit(() -> run(ctx, p)));
            }
            List<PointResult> out = new ArrayList<>();
            for (Future<PointResult> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("quality: a point failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("quality: interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Solves the point's tables once, then runs every policy at every seed (all on this thread). */
    private static PointResult run(ExperimentContext ctx, Point p) {
        long start = System.nanoTime();
        Scenario scenario = new Scenario(p.loaded(), ctx.costModel(), ctx.expertSettings(), ctx::progress);
        SimWorkload w = p.workload().atLoad(p.loaded(), p.load());
        double nonaSplit = scenario.controllerTable(w).maxSplitProbability(); // the table nona-controller samples
        double expertSplit = p.workload().policies().contains(EXPERT) ? scenario.expertTable(w).maxSplitProbability() : Double.NaN;
        long solved = System.nanoTime();
        List<QualityRow> rows = new ArrayList<>();
        List<QualityMemoryRow> memoryRows = new ArrayList<>();
        for (int i = 0; i < ctx.seeds(); i++) {
            long seed = ctx.seed() + i;
            for (String policy : p.workload().policies()) {
                SimResult r = scenario.run(policy, w, w, ctx.jobs(), seed);
                double split = policy.equals(CONTROLLER) ? nonaSplit : policy.equals(EXPERT) ? expertSplit : Double.NaN;
                QualityRow row = QualityRow.of(p.workload().name(), p.load(), w.computeLoad(), seed, policy, r, split);
                rows.add(row);
                if (p.workload().memory()) {
                    memoryRows.add(QualityMemoryRow.of(row, r, w));
                }
            }
        }
        double solveSeconds = (solved - start) / 1e9;
        double simulateSeconds = (System.nanoTime() - solved) / 1e9;
        ctx.progress(String.format(Locale.ROOT, "quality %s load %.1f: tables %.1f s, %d runs %.1f s; %s / best other %s",
                p.workload().name(), p.load(), solveSeconds, rows.size(), simulateSeconds, CONTROLLER,
                p.workload().memory() ? QualityMemorySummary.ratioText(memoryRows) : QualitySummary.worstRatioText(rows)));
        return new PointResult(p, rows, memoryRows, solveSeconds, simulateSeconds);
    }

    /** Mean JCT vs load per policy, averaged over seeds, log scale (unstable baselines are orders of magnitude off). */
    private static Charts plot(QualityWorkload w, List<QualityRow> rows) {
        Charts chart = new Charts("Mean JCT vs load, " + w.name() + " (mean of seeds)",
                w.clusterLoad() ? "load, sum_j beta_j S_j over the cluster" : "load per server", "mean JCT (s)", false, true);
        for (String policy : w.policies()) {
            rows.stream().filter(r -> r.workload().equals(w.name()) && r.policy().equals(policy))
                    .map(QualityRow::load).distinct().sorted()
                    .forEach(load -> chart.add(policy, load, rows.stream()
                            .filter(r -> r.workload().equals(w.name()) && r.policy().equals(policy) && r.load() == load)
                            .mapToDouble(QualityRow::meanJct).average().orElseThrow()));
        }
        return chart;
    }
}
