package dev.nona.sim.experiment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The markdown of {@link Quality}: per workload, load and seed, the ratio of {@value Quality#CONTROLLER}'s mean JCT
 * to the best of {@link Quality#BASELINES} and to {@value Quality#EXPERT}; a verdict per goal, with every point
 * where it fails; the worst ratios per workload; per workload a table by load; and, where the controller loses,
 * what its runs show (link utilisation, transfers per job, how often its table splits a subgraph). Computed from
 * the rows as the CSV holds them.
 */
final class QualitySummary {
    /** Goal (b): the controller within this factor of {@value Quality#EXPERT}. */
    static final double EXPERT_TOLERANCE = 1.02;
    /** Losses to the best baseline above this ratio get a row of diagnostics. */
    private static final double LOSS_SHOWN = 1.001;

    private final List<QualityWorkload> workloads;
    private final List<QualityRow> rows;
    private final List<Quality.PointResult> timings;
    private final List<Comparison> comparisons;

    QualitySummary(List<QualityWorkload> workloads, List<QualityRow> rows, List<Quality.PointResult> timings) {
        this.workloads = List.copyOf(workloads);
        this.rows = List.copyOf(rows);
        this.timings = List.copyOf(timings);
        this.comparisons = compare(rows);
    }

    /**
     * The controller at one workload, load and seed, against the best baseline and the expert.
     *
     * @param ratioBest   controller / best baseline (mean JCT of all jobs); at most 1 for goal (a)
     * @param ratioExpert controller / expert; at most {@link #EXPERT_TOLERANCE} for goal (b)
     */
    record Comparison(QualityRow controller, QualityRow best, QualityRow expert, double ratioBest, double ratioExpert) {
        String workload() {
            return controller.workload();
        }

        double load() {
            return controller.load();
        }

        long seed() {
            return controller.seed();
        }
    }

    /** One comparison per (workload, load, seed), in the rows' order. */
    static List<Comparison> compare(List<QualityRow> rows) {
        Map<String, Map<String, QualityRow>> byPoint = new LinkedHashMap<>();
        for (QualityRow r : rows) {
            byPoint.computeIfAbsent(r.workload() + "|" + r.load() + "|" + r.seed(), k -> new LinkedHashMap<>()).put(r.policy(), r);
        }
        List<Comparison> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, QualityRow>> e : byPoint.entrySet()) {
            Map<String, QualityRow> p = e.getValue();
            QualityRow controller = require(p, Quality.CONTROLLER, e.getKey());
            QualityRow expert = require(p, Quality.EXPERT, e.getKey());
            QualityRow best = Quality.BASELINES.stream().map(b -> require(p, b, e.getKey()))
                    .min(Comparator.comparingDouble(QualityRow::meanJct)).orElseThrow();
            out.add(new Comparison(controller, best, expert, controller.meanJct() / best.meanJct(),
                    controller.meanJct() / expert.meanJct()));
        }
        return out;
    }

    private static QualityRow require(Map<String, QualityRow> point, String policy, String where) {
        return Objects.requireNonNull(point.get(policy), () -> "quality rows lack policy '" + policy + "' at " + where);
    }

    /** The worst controller / best-baseline ratio among {@code rows} (one point's), for progress lines. */
    static String worstRatioText(List<QualityRow> rows) {
        Comparison w = compare(rows).stream().max(Comparator.comparingDouble(Comparison::ratioBest)).orElseThrow();
        return String.format(Locale.ROOT, "%.4f at worst (seed %d, best %s), / %s %.4f", w.ratioBest(), w.seed(),
                w.best().policy(), Quality.EXPERT, w.ratioExpert());
    }

    List<Comparison> comparisons() {
        return comparisons;
    }

    void write(ExperimentContext ctx) {
        setup(ctx);
        verdicts(ctx);
        worstTable(ctx);
        for (QualityWorkload w : workloads) {
            perLoad(ctx, w);
        }
        losses(ctx);
        timing(ctx);
    }

    private void setup(ExperimentContext ctx) {
        long seeds = comparisons.stream().mapToLong(Comparison::seed).distinct().count();
        ctx.md("Policies: `%s` (the controller's placement), `%s` (a search over tables scored by simulation, with the live "
                        + "mapping), and the schedulers a user would otherwise pick: %s. Each point (workload, load, seed) runs "
                        + "every policy with the same seed, so on the same arrivals (per-class arrival streams seeded by the "
                        + "seed alone); a run marked `*` grew unstable and stopped arrivals. %d measured inference jobs per run "
                        + "(after a tenth as many warm-up jobs); seeds: %d, from %d on. Ratios are of mean JCT over all measured "
                        + "jobs, as `quality.csv` holds them (6 significant digits).%n",
                Quality.CONTROLLER, Quality.EXPERT, Quality.BASELINES.stream().map(b -> "`" + b + "`").collect(Collectors.joining(", ")),
                ctx.jobs(), seeds, comparisons.isEmpty() ? ctx.seed() : comparisons.get(0).seed());
        ctx.md("| workload | file | load axis | plot |");
        ctx.md("| --- | --- | --- | --- |");
        for (QualityWorkload w : workloads) {
            ctx.md("| %s | `%s` | %s | `quality-%s.png` |", w.name(), w.file(), w.clusterLoad()
                    ? "over the cluster, sum_j beta_j S_j (the paper's wording, `--cluster-load`)" : "per server, sum_j beta_j S_j / N",
                    w.name());
        }
    }

    private void verdicts(ExperimentContext ctx) {
        List<Comparison> failA = comparisons.stream().filter(c -> !(c.ratioBest() <= 1.0)).toList();
        List<Comparison> failB = comparisons.stream().filter(c -> !(c.ratioExpert() <= EXPERT_TOLERANCE)).toList();
        ctx.md("%n## Verdicts%n");
        ctx.md("- **(a)** `%s` is no worse than the best of %s at every load, on every workload, in every seed "
                        + "(mean JCT ratio <= 1, no tolerance): %s%s", Quality.CONTROLLER, String.join(", ", Quality.BASELINES),
                verdict(failA), margins(failA, Comparison::ratioBest, 1.0));
        ctx.md("- **(b)** `%s` is within 2%% of `%s` everywhere (ratio <= %.2f): %s%s", Quality.CONTROLLER, Quality.EXPERT,
                EXPERT_TOLERANCE, verdict(failB), margins(failB, Comparison::ratioExpert, EXPERT_TOLERANCE));
        failures(ctx, "(a)", failA, true);
        failures(ctx, "(b)", failB, false);
    }

    private String verdict(List<Comparison> failures) {
        return failures.isEmpty() ? "**holds** at all " + comparisons.size() + " points"
                : "**DOES NOT HOLD** at " + failures.size() + " of " + comparisons.size() + " points (listed below)";
    }

    /** How many of the failures exceed the bound by more than 0.1% and by more than 1% (how far from holding it is). */
    private static String margins(List<Comparison> failures, ToDoubleFunction<Comparison> ratio, double bound) {
        if (failures.isEmpty()) {
            return "";
        }
        long small = failures.stream().filter(c -> ratio.applyAsDouble(c) > bound * 1.001).count();
        long large = failures.stream().filter(c -> ratio.applyAsDouble(c) > bound * 1.01).count();
        return String.format(Locale.ROOT, "; by more than 0.1%% at %d of them, by more than 1%% at %d", small, large);
    }

    private static void failures(ExperimentContext ctx, String goal, List<Comparison> failures, boolean againstBest) {
        if (failures.isEmpty()) {
            return;
        }
        ctx.md("%nWhere %s fails (ratios to 5 decimals):%n", goal);
        ctx.md(againstBest ? "| workload | load | seed | %s / best | best | %s link util. | best's link util. |"
                : "| workload | load | seed | %s / %s | %s link util. | %s link util. |", Quality.CONTROLLER,
                againstBest ? Quality.CONTROLLER : Quality.EXPERT, Quality.CONTROLLER, Quality.EXPERT);
        ctx.md("| --- | --- | --- | --- | --- | --- |%s", againstBest ? " --- |" : "");
        for (Comparison c : failures) {
            if (againstBest) {
                ctx.md("| %s | %.1f | %d | %.5f | %s%s | %.3f | %.3f |", c.workload(), c.load(), c.seed(), c.ratioBest(),
                        c.best().policy(), star(c.best()), c.controller().linkUtilization(), c.best().linkUtilization());
            } else {
                ctx.md("| %s | %.1f | %d | %.5f | %.3f | %.3f |", c.workload(), c.load(), c.seed(), c.ratioExpert(),
                        c.controller().linkUtilization(), c.expert().linkUtilization());
            }
        }
    }

    private void worstTable(ExperimentContext ctx) {
        ctx.md("%n## Worst ratio per workload%n");
        ctx.md("| workload | worst %s / best of the four (load, seed, best) | worst %s / %s (load, seed) |", Quality.CONTROLLER,
                Quality.CONTROLLER, Quality.EXPERT);
        ctx.md("| --- | --- | --- |");
        for (QualityWorkload w : workloads) {
            List<Comparison> cs = of(w);
            if (cs.isEmpty()) {
                continue;
            }
            Comparison a = cs.stream().max(Comparator.comparingDouble(Comparison::ratioBest)).orElseThrow();
            Comparison b = cs.stream().max(Comparator.comparingDouble(Comparison::ratioExpert)).orElseThrow();
            ctx.md("| %s | %.4f (%.1f, %d, %s) | %.4f (%.1f, %d) |", w.name(), a.ratioBest(), a.load(), a.seed(), a.best().policy(),
                    b.ratioExpert(), b.load(), b.seed());
        }
    }

    private void perLoad(ExperimentContext ctx, QualityWorkload w) {
        List<Comparison> cs = of(w);
        if (cs.isEmpty()) {
            return;
        }
        ctx.md("%n## %s (`%s`)%n", w.name(), w.file());
        ctx.md("Mean JCT (s), mean of seeds; ratios per seed, in seed order, then the worst. Link utilisation and the "
                + "table's largest split probability are means of seeds.%n");
        StringBuilder head = new StringBuilder("| load |");
        StringBuilder rule = new StringBuilder("| --- |");
        for (String p : Quality.POLICIES) {
            head.append(' ').append(p).append(" |");
            rule.append(" --- |");
        }
        ctx.md("%s %s / best per seed | worst | %s / %s per seed | worst | link util. %s, %s, jsq | table split %s, %s |",
                head, Quality.CONTROLLER, Quality.CONTROLLER, Quality.EXPERT, Quality.CONTROLLER, Quality.EXPERT,
                Quality.CONTROLLER, Quality.EXPERT);
        ctx.md("%s --- | --- | --- | --- | --- | --- |", rule);
        Map<Double, List<Comparison>> byLoad = cs.stream().collect(Collectors.groupingBy(Comparison::load, LinkedHashMap::new,
                Collectors.toList()));
        for (Map.Entry<Double, List<Comparison>> e : byLoad.entrySet()) {
            double load = e.getKey();
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "| %.1f |", load));
            for (String p : Quality.POLICIES) {
                List<QualityRow> runs = runs(w, load, p);
                line.append(String.format(Locale.ROOT, " %.4g%s |", mean(runs, QualityRow::meanJct),
                        runs.stream().anyMatch(QualityRow::arrivalsStopped) ? "*" : ""));
            }
            List<Comparison> atLoad = e.getValue();
            line.append(String.format(Locale.ROOT, " %s | %.4f | %s | %.4f | %.3f, %.3f, %.3f | %.3f, %.3f |",
                    list(atLoad, Comparison::ratioBest), worst(atLoad, Comparison::ratioBest),
                    list(atLoad, Comparison::ratioExpert), worst(atLoad, Comparison::ratioExpert),
                    mean(runs(w, load, Quality.CONTROLLER), QualityRow::linkUtilization),
                    mean(runs(w, load, Quality.EXPERT), QualityRow::linkUtilization),
                    mean(runs(w, load, "jsq"), QualityRow::linkUtilization),
                    mean(runs(w, load, Quality.CONTROLLER), QualityRow::tableSplit),
                    mean(runs(w, load, Quality.EXPERT), QualityRow::tableSplit)));
            ctx.md("%s", line);
        }
    }

    /** Where the controller loses to the best baseline: what its runs and the best one's show, per point (means of the failing seeds). */
    private void losses(ExperimentContext ctx) {
        List<Comparison> slightly = comparisons.stream().filter(c -> c.ratioBest() > 1.0 && c.ratioBest() <= LOSS_SHOWN).toList();
        Map<String, List<Comparison>> lost = comparisons.stream().filter(c -> !(c.ratioBest() <= LOSS_SHOWN))
                .collect(Collectors.groupingBy(c -> c.workload() + "|" + c.load(), LinkedHashMap::new, Collectors.toList()));
        if (lost.isEmpty() && slightly.isEmpty()) {
            return;
        }
        ctx.md("%n## Where %s loses to the best of the four: what the runs show%n", Quality.CONTROLLER);
        if (!slightly.isEmpty()) {
            long sameTransfers = slightly.stream().filter(c -> c.controller().transfersPerJob() == c.best().transfersPerJob()).count();
            ctx.md("At %d points it loses by at most 0.1%%; at %d of them its measured jobs made exactly as many transfers per "
                    + "job as the best policy's (the same groupings: jobs kept whole), so the gap there is the choice of server, "
                    + "not of grouping.%n", slightly.size(), sameTransfers);
        }
        if (lost.isEmpty()) {
            return;
        }
        ctx.md("Where it loses by more than 0.1%%: means over those seeds. Transfers per job: transfers of measured jobs "
                + "(background transfers included) per measured inference job; about 0 means every job kept whole.%n");
        ctx.md("| workload | load | seeds lost | mean ratio | best | link util. %s / best / %s | transfers per job %s / best / %s "
                + "| mean link wait (ms) %s / best | table split %s / %s |", Quality.CONTROLLER, Quality.EXPERT,
                Quality.CONTROLLER, Quality.EXPERT, Quality.CONTROLLER, Quality.CONTROLLER, Quality.EXPERT);
        ctx.md("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (List<Comparison> cs : lost.values()) {
            Comparison first = cs.get(0);
            String bests = cs.stream().map(c -> c.best().policy()).distinct().collect(Collectors.joining(", "));
            ctx.md("| %s | %.1f | %d | %.4f | %s | %.3f / %.3f / %.3f | %.3f / %.3f / %.3f | %.3g / %.3g | %.3f / %.3f |",
                    first.workload(), first.load(), cs.size(), cs.stream().mapToDouble(Comparison::ratioBest).average().orElseThrow(),
                    bests, avg(cs, c -> c.controller().linkUtilization()), avg(cs, c -> c.best().linkUtilization()),
                    avg(cs, c -> c.expert().linkUtilization()), avg(cs, c -> c.controller().transfersPerJob()),
                    avg(cs, c -> c.best().transfersPerJob()), avg(cs, c -> c.expert().transfersPerJob()),
                    1e3 * avg(cs, c -> c.controller().meanLinkWait()), 1e3 * avg(cs, c -> c.best().meanLinkWait()),
                    first.controller().tableSplit(), first.expert().tableSplit());
        }
    }

    private void timing(ExperimentContext ctx) {
        if (timings.isEmpty()) {
            return;
        }
        ctx.md("%n## Cost%n");
        ctx.md("Per point (workload, load): the tables solved once (Nona's optimiser and the expert search), then %d runs "
                + "(seeds x policies) on one thread; points ran in parallel.%n", timings.get(0).rows().size());
        ctx.md("| workload | tables: mean s (max) | runs per point: mean s (max) | one run: mean s (max, policy) |");
        ctx.md("| --- | --- | --- | --- |");
        for (QualityWorkload w : workloads) {
            List<Quality.PointResult> ts = timings.stream().filter(t -> t.point().workload().equals(w)).toList();
            if (ts.isEmpty()) {
                continue;
            }
            List<QualityRow> runs = ts.stream().flatMap(t -> t.rows().stream()).toList();
            QualityRow slowest = runs.stream().max(Comparator.comparingDouble(QualityRow::wallSeconds)).orElseThrow();
            ctx.md("| %s | %.1f (%.1f) | %.1f (%.1f) | %.2f (%.1f, %s at %.1f) |", w.name(),
                    ts.stream().mapToDouble(Quality.PointResult::solveSeconds).average().orElseThrow(),
                    ts.stream().mapToDouble(Quality.PointResult::solveSeconds).max().orElseThrow(),
                    ts.stream().mapToDouble(Quality.PointResult::simulateSeconds).average().orElseThrow(),
                    ts.stream().mapToDouble(Quality.PointResult::simulateSeconds).max().orElseThrow(),
                    mean(runs, QualityRow::wallSeconds), slowest.wallSeconds(), slowest.policy(), slowest.load());
        }
    }

    private List<Comparison> of(QualityWorkload w) {
        return comparisons.stream().filter(c -> c.workload().equals(w.name())).toList();
    }

    private List<QualityRow> runs(QualityWorkload w, double load, String policy) {
        return rows.stream().filter(r -> r.workload().equals(w.name()) && r.load() == load && r.policy().equals(policy)).toList();
    }

    private static String star(QualityRow r) {
        return r.arrivalsStopped() ? "*" : "";
    }

    private static double mean(List<QualityRow> runs, ToDoubleFunction<QualityRow> f) {
        return runs.stream().mapToDouble(f).average().orElse(Double.NaN);
    }

    private static double avg(List<Comparison> cs, ToDoubleFunction<Comparison> f) {
        return cs.stream().mapToDouble(f).average().orElse(Double.NaN);
    }

    private static double worst(List<Comparison> cs, ToDoubleFunction<Comparison> f) {
        return cs.stream().mapToDouble(f).max().orElse(Double.NaN);
    }

    private static String list(List<Comparison> cs, ToDoubleFunction<Comparison> f) {
        return cs.stream().map(c -> String.format(Locale.ROOT, "%.4f", f.applyAsDouble(c))).collect(Collectors.joining(", "));
    }
}
