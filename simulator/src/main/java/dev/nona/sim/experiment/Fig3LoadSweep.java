package dev.nona.sim.experiment;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.report.Charts;
import dev.nona.sim.report.CsvTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Figure 3 of Nona: mean JCT (all jobs, and inference only) of every policy as the compute load goes from 0.1 to
 * 0.9, on the workload's cluster (the paper: 80 servers, 10 Gbit/s). Also checks the headline claims at 70% load.
 */
public final class Fig3LoadSweep implements Experiment {
    static final double[] LOADS = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};

    @Override
    public String name() {
        return "fig3";
    }

    @Override
    public String description() {
        return "mean JCT vs compute load 0.1-0.9, every policy (all jobs and inference only)";
    }

    @Override
    public void run(ExperimentContext ctx) {
        CsvTable csv = new CsvTable("load", "policy", "meanJctSeconds", "p99JctSeconds", "inferenceMeanJctSeconds",
                "inferenceP99JctSeconds", "linkUtilization", "meanLinkWaitSeconds", "eventsPerSecond", "wallSeconds");
        Charts all = new Charts("Mean JCT vs load (all jobs)", "compute load", "mean JCT (s)", false, true);
        Charts inf = new Charts("Mean JCT vs load (inference jobs)", "compute load", "mean JCT (s)", false, true);
        Map<String, SimResult> at70 = new LinkedHashMap<>();
        for (double load : LOADS) {
            SimWorkload w = ctx.atLoad(load);
            for (String policy : ctx.policies()) {
                SimResult r = ctx.run(policy, w, "fig3 load " + load);
                csv.add(load, policy, r.meanJctSeconds(), r.p99JctSeconds(), r.inference().mean(), r.inference().quantile(0.99),
                        r.linkUtilization(), r.meanLinkWaitSeconds(), r.eventsPerSecond(), r.wallSeconds());
                all.add(policy, load, r.meanJctSeconds());
                inf.add(policy, load, r.inference().mean());
                if (load == 0.7) {
                    at70.put(policy, r);
                }
            }
        }
        csv.write(ctx.out().resolve("fig3.csv"));
        all.write(ctx.out().resolve("fig3a-all-jobs.png"));
        inf.write(ctx.out().resolve("fig3b-inference.png"));
        ctx.md("Mean JCT of every policy vs compute load (%s) on `%d` servers, link %.3g bit/s, %d measured inference jobs per "
                + "point. Plots: `fig3a-all-jobs.png`, `fig3b-inference.png`; data: `fig3.csv`.%n",
                ctx.clusterLoad() ? "over the cluster, sum_j beta_j S_j, `--cluster-load`" : "per server, sum_j beta_j S_j / N",
                ctx.workload().cluster().servers(), ctx.workload().cluster().linkBitsPerSecond(), ctx.jobs());
        Headline.write(ctx, at70, "70% load");
        ctx.writeSummary("Figure 3: mean JCT vs load");
    }

    /** The policies' results at one point, as a markdown table with ratios to Nona. */
    static void table(ExperimentContext ctx, Map<String, SimResult> results) {
        SimResult nona = results.get("nona");
        ctx.md("| policy | mean JCT (s) | p99 JCT (s) | inference mean (s) | link util. | mean JCT / Nona's |");
        ctx.md("| --- | --- | --- | --- | --- | --- |");
        for (Map.Entry<String, SimResult> e : results.entrySet()) {
            SimResult r = e.getValue();
            ctx.md("| %s | %.4g | %.4g | %.4g | %.3f | %.3g |", e.getKey(), r.meanJctSeconds(), r.p99JctSeconds(),
                    r.inference().mean(), r.linkUtilization(), nona == null ? Double.NaN : r.meanJctSeconds() / nona.meanJctSeconds());
        }
    }

    static List<String> names(Map<String, SimResult> m) {
        return List.copyOf(m.keySet());
    }
}
