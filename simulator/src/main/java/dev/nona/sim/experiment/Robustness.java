package dev.nona.sim.experiment;

import dev.nona.sim.JobKind;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.report.Charts;
import dev.nona.sim.report.CsvTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Section IV-D of Nona: how much the tables need the true rates. At each true load, Nona solved for rates off by
 * a uniform factor $1+\epsilon$ ($\epsilon \in [-40\%, +40\%]$), Nona solved for per-model rates each off by a
 * random factor in $[0.6, 1.4]$, and Nona* (one table solved at 50% load) are compared with Expert searched at
 * the true rates.
 */
public final class Robustness implements Experiment {
    static final double[] LOADS = {0.3, 0.5, 0.7, 0.8};
    static final double[] ERRORS = {-0.4, -0.2, 0, 0.2, 0.4};
    static final int RANDOM_DRAWS = 3;

    @Override
    public String name() {
        return "robustness";
    }

    @Override
    public String description() {
        return "Nona and Nona* under +-40% rate error, against Expert at the true rates";
    }

    @Override
    public void run(ExperimentContext ctx) {
        CsvTable csv = new CsvTable("trueLoad", "variant", "rateError", "meanJctSeconds", "expertMeanJctSeconds", "ratioToExpert");
        Charts chart = new Charts("Mean JCT / Expert's under rate error", "true load", "mean JCT / Expert's", false, false);
        ctx.md("| true load | variant | mean JCT (s) | / Expert |");
        ctx.md("| --- | --- | --- | --- |");
        double worstStar = 0;
        double worstNona = 0;
        for (double load : LOADS) {
            SimWorkload truth = ctx.atLoad(load);
            double expert = ctx.run("expert", truth, "robustness load " + load).meanJctSeconds();
            double star = ctx.run("nona-star", truth, "robustness load " + load).meanJctSeconds();
            worstStar = Math.max(worstStar, star / expert);
            row(ctx, csv, chart, load, "nona-star", Double.NaN, star, expert);
            for (double eps : ERRORS) {
                SimWorkload believed = truth.withRatesScaled(1 + eps);
                SimResult r = ctx.run("nona", truth, believed, "robustness load " + load + " error " + eps);
                worstNona = Math.max(worstNona, r.meanJctSeconds() / expert);
                row(ctx, csv, chart, load, String.format(Locale.ROOT, "nona %+.0f%%", eps * 100), eps, r.meanJctSeconds(), expert);
            }
            SplittableRandom random = new SplittableRandom(ctx.seed() + 99);
            for (int d = 0; d < RANDOM_DRAWS; d++) {
                SimWorkload believed = perModelError(truth, random);
                SimResult r = ctx.run("nona", truth, believed, "robustness load " + load + " random error " + d);
                worstNona = Math.max(worstNona, r.meanJctSeconds() / expert);
                row(ctx, csv, chart, load, "nona per-model +-40% #" + d, Double.NaN, r.meanJctSeconds(), expert);
            }
        }
        csv.write(ctx.out().resolve("robustness.csv"));
        chart.write(ctx.out().resolve("robustness.png"));
        ctx.md("%nWorst Nona* / Expert: %.3f (%s 15%%). Worst Nona with wrong rates / Expert: %.3f.", worstStar,
                worstStar <= 1.15 ? "within" : "NOT within", worstNona);
        ctx.writeSummary("Robustness to rate error (Section IV-D)");
    }

    private static void row(ExperimentContext ctx, CsvTable csv, Charts chart, double load, String variant, double eps, double mean, double expert) {
        csv.add(load, variant, eps, mean, expert, mean / expert);
        chart.add(variant, load, mean / expert);
        ctx.md("| %.1f | %s | %.4g | %.3f |", load, variant, mean, mean / expert);
    }

    /** The same workload with each model's rate off by an independent factor in [0.6, 1.4]. */
    static SimWorkload perModelError(SimWorkload truth, SplittableRandom random) {
        List<SimJobClass> classes = new ArrayList<>();
        for (SimJobClass c : truth.classes()) {
            double f = c.kind() == JobKind.INFERENCE ? 0.6 + 0.8 * random.nextDouble() : 1;
            classes.add(c.withRate(c.ratePerSecond() * f));
        }
        return truth.withClasses(classes);
    }
}
