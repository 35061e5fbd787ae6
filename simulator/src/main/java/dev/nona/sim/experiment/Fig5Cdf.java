package dev.nona.sim.experiment;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.report.Charts;
import dev.nona.sim.report.CsvTable;
import java.util.LinkedHashMap;
import java.util.Map;

/** Figure 5 of Nona: the CDF of JCT per job class (each model and each background kind) at 70% load. */
public final class Fig5Cdf implements Experiment {
    @Override
    public String name() {
        return "fig5";
    }

    @Override
    public String description() {
        return "JCT CDF per model at 70% load, every policy";
    }

    @Override
    public void run(ExperimentContext ctx) {
        SimWorkload w = ctx.atLoad(0.7);
        CsvTable csv = new CsvTable("class", "policy", "jctSeconds", "cdf");
        CsvTable tails = new CsvTable("class", "policy", "meanJctSeconds", "p50JctSeconds", "p99JctSeconds", "completed");
        Map<String, Charts> charts = new LinkedHashMap<>();
        Map<String, SimResult> results = new LinkedHashMap<>();
        for (String policy : ctx.policies()) {
            SimResult r = ctx.run(policy, w, "fig5");
            results.put(policy, r);
            for (SimResult.ClassResult c : r.classes()) {
                Charts chart = charts.computeIfAbsent(c.name(), k -> new Charts("JCT CDF: " + k + " (load 0.7)", "JCT (s)", "CDF", true, false));
                for (double[] p : c.jct().cdf()) {
                    csv.add(c.name(), policy, p[0], p[1]);
                    chart.add(policy, p[0], p[1]);
                }
                tails.add(c.name(), policy, c.jct().mean(), c.jct().quantile(0.5), c.jct().quantile(0.99), c.jct().count());
            }
        }
        csv.write(ctx.out().resolve("fig5-cdf.csv"));
        tails.write(ctx.out().resolve("fig5-per-class.csv"));
        ctx.md("JCT CDF per job class at 70%% load (`fig5-<class>.png`; points `fig5-cdf.csv`, one per histogram bucket, "
                + "relative accuracy 0.5%%; per-class mean/p50/p99 in `fig5-per-class.csv`).%n");
        ctx.md("| class | policy | mean (s) | p99 (s) |");
        ctx.md("| --- | --- | --- | --- |");
        for (Map.Entry<String, Charts> e : charts.entrySet()) {
            e.getValue().write(ctx.out().resolve("fig5-" + e.getKey() + ".png"));
            for (Map.Entry<String, SimResult> r : results.entrySet()) {
                for (SimResult.ClassResult c : r.getValue().classes()) {
                    if (c.name().equals(e.getKey())) {
                        ctx.md("| %s | %s | %.4g | %.4g |", c.name(), r.getKey(), c.jct().mean(), c.jct().quantile(0.99));
                    }
                }
            }
        }
        ctx.writeSummary("Figure 5: JCT CDF per model at 70% load");
    }
}
