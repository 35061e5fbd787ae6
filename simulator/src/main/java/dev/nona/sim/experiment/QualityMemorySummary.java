package dev.nona.sim.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.BiPredicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The markdown of {@link Quality}'s heterogeneous/memory workloads ({@code memory-summary.md}): per workload and load,
 * seed means of every policy's mean JCT; the goals (a) {@value Quality#CONTROLLER} at most the best of
 * {@link Quality#MEMORY_BASELINES} at every load, (b) on {@code memory-bound} at 0.7-0.9 at least
 * {@value #MEMORY_GAIN} lower than that best, (c) on {@code hetero} at 0.7-0.9 at least {@value #HETERO_GAIN} lower
 * than {@value Quality#UNIFORM}, (d) cold starts per 1,000 jobs at most those of {@link Quality#COLOCATION}, judged
 * also on the reloads alone (the cold starts that recur: {@link dev.nona.sim.engine.SimResult#reloads()}); and, where a goal fails, the terms the runs show
 * (per-class utilisation: queueing; cold starts; link utilisation and transfers), and where (b)'s target is below the
 * workload's lower bound on any policy's mean JCT ({@link dev.nona.sim.SimWorkload#inferenceJctLowerBoundSeconds()}),
 * that no placement could meet it there.
 */
final class QualityMemorySummary {
    static final double MEMORY_GAIN = 0.15;
    static final double HETERO_GAIN = 0.10;
    static final double HIGH_LOAD = 0.7;

    private final List<QualityWorkload> workloads;
    private final List<QualityMemoryRow> rows;
    private final List<Quality.PointResult> timings;
    private final StringBuilder md = new StringBuilder();

    QualityMemorySummary(List<QualityWorkload> workloads, List<QualityMemoryRow> rows, List<Quality.PointResult> timings) {
        this.workloads = List.copyOf(workloads);
        this.rows = List.copyOf(rows);
        this.timings = List.copyOf(timings);
    }

    /** One (workload, load): seed means per policy. */
    record Point(String workload, double load, List<String> policies, double[] meanJct, double[] coldPer1000,
                 double[] reloadPer1000, boolean[] unstable, double[] linkUtil, double[] transfers, long violations, String controllerClasses, String bestClasses,
                 String best, double ratioBest, double ratioUniform, double lowerBound) {
        double of(double[] v, String policy) {
            return v[policies.indexOf(policy)];
        }

        /** Goal (b)'s target here: the best baseline's mean less {@link #MEMORY_GAIN}. */
        double memoryTarget() {
            return (1 - MEMORY_GAIN) * of(meanJct, best);
        }

        /** True if goal (b)'s target is below the mean JCT no placement can beat: no policy could meet it here. */
        boolean memoryTargetUnattainable() {
            return memoryTarget() < lowerBound;
        }

        /** Goal (d) against {@code colocation}: the controller's cold starts per 1,000 jobs at most that policy's (true if it did not run). */
        boolean fewerColdStartsThan(String colocation) {
            return !policies.contains(colocation) || of(coldPer1000, Quality.CONTROLLER) <= of(coldPer1000, colocation);
        }

        /** Goal (d) on reloads alone: the controller's reloads per 1,000 jobs at most {@code colocation}'s (true if it did not run). */
        boolean fewerReloadsThan(String colocation) {
            return !policies.contains(colocation) || of(reloadPer1000, Quality.CONTROLLER) <= of(reloadPer1000, colocation);
        }

        /** Whether a run of {@code policy} here grew unstable and stopped arrivals (any seed). */
        boolean unstable(String policy) {
            return unstable[policies.indexOf(policy)];
        }
    }

    static List<Point> points(List<QualityMemoryRow> rows) {
        List<Point> out = new ArrayList<>();
        rows.stream().map(r -> r.row().workload() + "|" + r.row().load()).distinct().forEach(key -> {
            List<QualityMemoryRow> at = rows.stream().filter(r -> (r.row().workload() + "|" + r.row().load()).equals(key)).toList();
            List<String> policies = at.stream().map(r -> r.row().policy()).distinct().toList();
            double[] jct = new double[policies.size()];
            double[] cold = new double[policies.size()];
            double[] reload = new double[policies.size()];
            double[] link = new double[policies.size()];
            double[] transfers = new double[policies.size()];
            boolean[] unstable = new boolean[policies.size()];
            for (int i = 0; i < policies.size(); i++) {
                String p = policies.get(i);
                List<QualityMemoryRow> runs = at.stream().filter(r -> r.row().policy().equals(p)).toList();
                jct[i] = mean(runs, r -> r.row().meanJct());
                cold[i] = mean(runs, QualityMemoryRow::coldStartsPer1000);
                reload[i] = mean(runs, QualityMemoryRow::reloadsPer1000);
                link[i] = mean(runs, r -> r.row().linkUtilization());
                transfers[i] = mean(runs, r -> r.row().transfersPerJob());
                unstable[i] = runs.stream().anyMatch(r -> r.row().arrivalsStopped());
            }
            String best = Quality.MEMORY_BASELINES.stream().filter(policies::contains)
                    .min(Comparator.comparingDouble(b -> jct[policies.indexOf(b)])).orElseThrow();
            double controller = jct[policies.indexOf(Quality.CONTROLLER)];
            double uniform = policies.contains(Quality.UNIFORM) ? jct[policies.indexOf(Quality.UNIFORM)] : Double.NaN;
            long violations = at.stream().mapToLong(QualityMemoryRow::memoryViolations).sum();
            out.add(new Point(at.get(0).row().workload(), at.get(0).row().load(), policies, jct, cold, reload, unstable, link, transfers, violations,
                    classes(at, Quality.CONTROLLER), classes(at, best), best, controller / jct[policies.indexOf(best)],
                    controller / uniform, at.stream().mapToDouble(QualityMemoryRow::jctLowerBound).max().orElse(Double.NaN)));
        });
        return out;
    }

    /** The first seed's per-class utilisation of {@code policy}. */
    private static String classes(List<QualityMemoryRow> at, String policy) {
        return at.stream().filter(r -> r.row().policy().equals(policy)).findFirst().map(QualityMemoryRow::classUtilisation).orElse("");
    }

    /** For the progress line of one point's rows. */
    static String ratioText(List<QualityMemoryRow> rows) {
        Point p = points(rows).get(0);
        return String.format(Locale.ROOT, "%.4f (seed mean, best %s), / %s %.4f", p.ratioBest(), p.best(), Quality.UNIFORM, p.ratioUniform());
    }

    void write(ExperimentContext ctx, Path file) {
        List<Point> points = points(rows);
        long seeds = rows.stream().mapToLong(r -> r.row().seed()).distinct().count();
        line("# Quality on heterogeneous servers, memory and cold starts%n");
        line("Policies: `%s` (the controller's placement, per-class speeds, memory and cold starts), `%s` (today's controller: one mean "
                        + "speed, memory only as a filter; the before), and the baselines %s (memory-feasible servers only: the "
                        + "baselines run behind the memory filter); `%s` is not run here (its search took 15-145 s per point on these workloads on the shared machine, and no goal here reads it). "
                        + "`colocation` and `colocation-queuing` are the thesis's model colocation without and with queuing on whole "
                        + "jobs (the rule of the model-aware simulator's policies of those names): a job goes to the server holding its "
                        + "model with the fewest ongoing requests under the target of 3; if there is none, `colocation` starts it cold "
                        + "on a random server that does not hold it and `colocation-queuing` joins the queue of a server that does. A "
                        + "mean JCT marked `*` is of a run that grew unstable and stopped arrivals (any seed). Every policy at a point runs with the same seed, so on "
                        + "the same arrivals. %d measured jobs per run (after a tenth as many warm-up jobs), %d seeds from %d; figures are "
                        + "seed means. `quality-memory.csv` holds every run (cold starts, evictions, memory violations, per-class "
                        + "utilisation).%n",
                Quality.CONTROLLER, Quality.UNIFORM,
                Quality.MEMORY_BASELINES.stream().map(b -> "`" + b + "`").collect(Collectors.joining(", ")), Quality.EXPERT, ctx.jobs(), seeds,
                rows.isEmpty() ? ctx.seed() : rows.get(0).row().seed());
        line("| workload | file | plot |");
        line("| --- | --- | --- |");
        for (QualityWorkload w : workloads) {
            line("| %s | `%s` | `quality-%s.png` |", w.name(), w.file(), w.name());
        }
        verdicts(points);
        for (QualityWorkload w : workloads) {
            perLoad(w, points.stream().filter(p -> p.workload().equals(w.name())).toList());
        }
        timing();
        line("%nRegenerate: `%s=%s bin/nona experiment quality --out %s --jobs %d --seed %d --seeds %d "
                        + "--expert-jobs %d` (%.0f s of wall-clock time on the shared 2-core machine).", Quality.SELECT,
                workloads.stream().map(QualityWorkload::name).collect(Collectors.joining(",")), ctx.out(), ctx.jobs(), ctx.seed(), seeds,
                ctx.expertSettings().jobs(), ctx.wallSeconds());
        try {
            Files.writeString(file, md.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void verdicts(List<Point> points) {
        List<Point> failA = points.stream().filter(p -> !(p.ratioBest() <= 1.0)).toList();
        List<Point> high = points.stream().filter(p -> p.load() >= HIGH_LOAD - 1e-9).toList();
        List<Point> memory = high.stream().filter(p -> p.workload().equals("memory-bound")).toList();
        List<Point> hetero = high.stream().filter(p -> p.workload().equals("hetero")).toList();
        List<Point> failB = memory.stream().filter(p -> !(p.ratioBest() <= 1 - MEMORY_GAIN)).toList();
        List<Point> failC = hetero.stream().filter(p -> !(p.ratioUniform() <= 1 - HETERO_GAIN)).toList();
        long violations = points.stream().mapToLong(Point::violations).sum();
        line("%n## Verdicts (seed means)%n");
        line("- **(a)** `%s` <= the best baseline at every load on every workload: %s", Quality.CONTROLLER, verdict(failA, points.size()));
        line("- **(b)** `memory-bound` at 0.7-0.9: `%s` at least %.0f%% below the best baseline (ratio <= %.2f): %s",
                Quality.CONTROLLER, 100 * MEMORY_GAIN, 1 - MEMORY_GAIN, verdict(failB, memory.size()));
        List<Point> unattainable = failB.stream().filter(Point::memoryTargetUnattainable).toList();
        if (!unattainable.isEmpty()) {
            line("  - unattainable by any placement at %s: the target (%.2f of the best baseline) is below the workload's lower "
                            + "bound on the mean JCT (each model's longest path of operations at the fastest class's speed, no "
                            + "transfer, wait or cold start, weighted by the models' rates: `inferenceJctLowerBoundSeconds`)",
                    unattainable.stream().map(p -> String.format(Locale.ROOT, "%s %.1f (target %.4f s, bound %.4f s)", p.workload(),
                            p.load(), p.memoryTarget(), p.lowerBound())).collect(Collectors.joining(", ")), 1 - MEMORY_GAIN);
        }
        line("- **(c)** `hetero` at 0.7-0.9: `%s` at least %.0f%% below `%s` (ratio <= %.2f): %s", Quality.CONTROLLER,
                100 * HETERO_GAIN, Quality.UNIFORM, 1 - HETERO_GAIN, verdict(failC, hetero.size()));
        line("- **(d)** `%s`'s cold starts per 1,000 jobs no more than each of the thesis's colocation policies' (column group "
                + "`cold/1000` below): %s", Quality.CONTROLLER, againstEachColocation(points, Point::fewerColdStartsThan));
        line("  - on reloads alone (column group `reloads/1000`: a cold start that loads again what its server had loaded and "
                + "evicted; the others are first loads, at most one per server and part, so their share per 1,000 jobs falls as a "
                + "run grows while reloads recur): %s", againstEachColocation(points, Point::fewerReloadsThan));
        for (String c : Quality.COLOCATION) {
            List<Point> unstable = points.stream().filter(p -> p.policies().contains(c) && p.unstable(c)).toList();
            if (!unstable.isEmpty()) {
                line("  - `%s` grew unstable (arrivals stopped) at %d of %d points: %s", c, unstable.size(),
                        points.stream().filter(p -> p.policies().contains(c)).count(), unstable.stream().map(p ->
                                String.format(Locale.ROOT, "%s %.1f", p.workload(), p.load())).collect(Collectors.joining(", ")));
            }
        }
        line("- memory violations (placements refused by the caches), all policies, all runs: %d", violations);
        List<Point> failing = points.stream().filter(p -> failA.contains(p) || failB.contains(p) || failC.contains(p)).toList();
        if (!failing.isEmpty()) {
            line("%nWhere a goal fails: the terms the runs show (seed means; per-class utilisation of the first seed). Queueing shows "
                    + "as a class's utilisation, the cold-start term as cold starts per 1,000 jobs, the link's as its utilisation and "
                    + "transfers per job.%n");
            line("| workload | load | / best (best) | / %s | cold/1000 %s, best, %s | link util. %s, best | transfers/job %s, best "
                    + "| class util. %s | class util. best |", Quality.UNIFORM, Quality.CONTROLLER, Quality.UNIFORM,
                    Quality.CONTROLLER, Quality.CONTROLLER, Quality.CONTROLLER);
            line("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
            for (Point p : failing) {
                line("| %s | %.1f | %.4f (%s) | %.4f | %.3g, %.3g, %.3g | %.3f, %.3f | %.3f, %.3f | %s | %s |", p.workload(), p.load(),
                        p.ratioBest(), p.best(), p.ratioUniform(), p.of(p.coldPer1000(), Quality.CONTROLLER),
                        p.of(p.coldPer1000(), p.best()), p.of(p.coldPer1000(), Quality.UNIFORM),
                        p.of(p.linkUtil(), Quality.CONTROLLER), p.of(p.linkUtil(), p.best()),
                        p.of(p.transfers(), Quality.CONTROLLER), p.of(p.transfers(), p.best()), p.controllerClasses(), p.bestClasses());
            }
        }
    }

    /** Goal (d)'s verdict against each of {@link Quality#COLOCATION}, by {@code holds(point, colocation policy)}. */
    private static String againstEachColocation(List<Point> points, BiPredicate<Point, String> holds) {
        return Quality.COLOCATION.stream().map(c -> String.format(Locale.ROOT, "against `%s` %s", c,
                verdict(points.stream().filter(p -> !holds.test(p, c)).toList(),
                        (int) points.stream().filter(p -> p.policies().contains(c)).count()))).collect(Collectors.joining("; "));
    }

    private static String verdict(List<Point> failures, int of) {
        if (of == 0) {
            return "not measured (no such points in this run)";
        }
        return failures.isEmpty() ? "**holds** at all " + of + " points"
                : "**DOES NOT HOLD** at " + failures.size() + " of " + of + " points (loads "
                + failures.stream().map(p -> String.format(Locale.ROOT, "%s %.1f", p.workload(), p.load())).collect(Collectors.joining(", "))
                + ")";
    }

    private void perLoad(QualityWorkload w, List<Point> points) {
        if (points.isEmpty()) {
            return;
        }
        List<String> policies = w.policies();
        line("%n## %s (`%s`)%n", w.name(), w.file());
        line("Mean JCT (s) per policy, seed means; the ratios of `%s` to the best baseline and to `%s`; cold starts per 1,000 jobs "
                + "per policy (same order), and of those the reloads (a part loaded again where it had been evicted). No "
                + "placement's mean JCT can be below %.4f s here (`inferenceJctLowerBoundSeconds`: each model's longest path "
                + "of operations at the fastest class's speed, weighted by the models' rates).%n",
                Quality.CONTROLLER, Quality.UNIFORM, points.get(0).lowerBound());
        line("| load | %s | / best (best) | / %s | cold/1000: %s | reloads/1000 (same order) |", String.join(" | ", policies),
                Quality.UNIFORM, String.join(", ", policies));
        line("| --- |%s --- | --- | --- | --- |", " --- |".repeat(policies.size()));
        for (Point p : points) {
            String jcts = policies.stream().map(q -> String.format(Locale.ROOT, "%.4g%s", p.of(p.meanJct(), q), p.unstable(q) ? "*" : ""))
                    .collect(Collectors.joining(" | "));
            String cold = policies.stream().map(q -> String.format(Locale.ROOT, "%.3g", p.of(p.coldPer1000(), q))).collect(Collectors.joining(", "));
            String reloads = policies.stream().map(q -> String.format(Locale.ROOT, "%.3g", p.of(p.reloadPer1000(), q)))
                    .collect(Collectors.joining(", "));
            line("| %.1f | %s | %.4f (%s) | %.4f | %s | %s |", p.load(), jcts, p.ratioBest(), p.best(), p.ratioUniform(), cold, reloads);
        }
    }

    private void timing() {
        if (timings.isEmpty()) {
            return;
        }
        line("%n## Cost%n");
        line("| workload | tables: mean s (max) | runs per point: mean s (max) |");
        line("| --- | --- | --- |");
        for (QualityWorkload w : workloads) {
            List<Quality.PointResult> ts = timings.stream().filter(t -> t.point().workload().equals(w)).toList();
            if (ts.isEmpty()) {
                continue;
            }
            line("| %s | %.1f (%.1f) | %.1f (%.1f) |", w.name(),
                    ts.stream().mapToDouble(Quality.PointResult::solveSeconds).average().orElseThrow(),
                    ts.stream().mapToDouble(Quality.PointResult::solveSeconds).max().orElseThrow(),
                    ts.stream().mapToDouble(Quality.PointResult::simulateSeconds).average().orElseThrow(),
                    ts.stream().mapToDouble(Quality.PointResult::simulateSeconds).max().orElseThrow());
        }
    }

    private void line(String format, Object... args) {
        md.append(String.format(Locale.ROOT, format, args)).append('\n');
    }

    private static double mean(List<QualityMemoryRow> runs, ToDoubleFunction<QualityMemoryRow> f) {
        return runs.stream().mapToDouble(f).average().orElse(Double.NaN);
    }
}
