package dev.nona.sim.experiment;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
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

    private final List<QualityWorkload> workloads;
    private final double[] loads;
    private final int threads;
    private final String sharedDags;

    public Quality() {
        this(WORKLOADS, LOADS, Runtime.getRuntime().availableProcessors(), System.getenv(QualityWorkload.SHARED_DAGS));
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
                + "--seeds seeds, on zoo, paper-regime (cluster load) and pipedream-batch-bytes (needs the PipeDream graphs)";
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
        ctx.progress(String.format(Locale.ROOT, "quality: %d points x %d seeds x %d policies, %d jobs each, on %d threads",
                points.size(), ctx.seeds(), POLICIES.size(), ctx.jobs(), threads));
        List<PointResult> results = runAll(ctx, points);
        List<QualityRow> rows = results.stream().flatMap(r -> r.rows().stream()).toList();
        Path csv = ctx.out().resolve("quality.csv");
        QualityRow.write(rows, csv);
        for (QualityWorkload w : workloads) {
            plot(w, rows).write(ctx.out().resolve("quality-" + w.name() + ".png"));
        }
        new QualitySummary(workloads, QualityRow.read(csv), results).write(ctx);
        ctx.writeSummary("Quality everywhere: " + CONTROLLER + " at every load, workload and seed");
    }

    /** One (workload, load) of the grid. */
    record Point(QualityWorkload workload, SimWorkloads.Loaded loaded, double load) {
    }

    /** A point's rows (seeds x policies) and its wall-clock costs. */
    record PointResult(Point point, List<QualityRow> rows, double solveSeconds, double simulateSeconds) {
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
        double expertSplit = scenario.expertTable(w).maxSplitProbability();
        long solved = System.nanoTime();
        List<QualityRow> rows = new ArrayList<>();
        for (int i = 0; i < ctx.seeds(); i++) {
            long seed = ctx.seed() + i;
            for (String policy : POLICIES) {
                SimResult r = scenario.run(policy, w, w, ctx.jobs(), seed);
                double split = policy.equals(CONTROLLER) ? nonaSplit : policy.equals(EXPERT) ? expertSplit : Double.NaN;
                rows.add(QualityRow.of(p.workload().name(), p.load(), w.computeLoad(), seed, policy, r, split));
            }
        }
        double solveSeconds = (solved - start) / 1e9;
        double simulateSeconds = (System.nanoTime() - solved) / 1e9;
        ctx.progress(String.format(Locale.ROOT, "quality %s load %.1f: tables %.1f s, %d runs %.1f s; %s / best other %s",
                p.workload().name(), p.load(), solveSeconds, rows.size(), simulateSeconds, CONTROLLER,
                QualitySummary.worstRatioText(rows)));
        return new PointResult(p, rows, solveSeconds, simulateSeconds);
    }

    /** Mean JCT vs load per policy, averaged over seeds, log scale (unstable baselines are orders of magnitude off). */
    private static Charts plot(QualityWorkload w, List<QualityRow> rows) {
        Charts chart = new Charts("Mean JCT vs load, " + w.name() + " (mean of seeds)",
                w.clusterLoad() ? "load, sum_j beta_j S_j over the cluster" : "load per server", "mean JCT (s)", false, true);
        for (String policy : POLICIES) {
            rows.stream().filter(r -> r.workload().equals(w.name()) && r.policy().equals(policy))
                    .map(QualityRow::load).distinct().sorted()
                    .forEach(load -> chart.add(policy, load, rows.stream()
                            .filter(r -> r.workload().equals(w.name()) && r.policy().equals(policy) && r.load() == load)
                            .mapToDouble(QualityRow::meanJct).average().orElseThrow()));
        }
        return chart;
    }
}
