package dev.nona.sim.experiment;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.report.Charts;
import dev.nona.sim.report.CsvTable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Figure 4 of Nona: mean JCT of every policy as the link bandwidth varies, at fixed arrival rates (the
 * workload's mix at 70% compute load), so only the network changes. Background transfers keep their size, so
 * their link load falls as the bandwidth grows.
 */
public final class Fig4Bandwidth implements Experiment {
    static final double[] GBPS = {1, 2.5, 5, 10, 25, 40, 100};
    static final double LOAD = 0.7;

    @Override
    public String name() {
        return "fig4";
    }

    @Override
    public String description() {
        return "mean JCT vs link bandwidth 1-100 Gbit/s at 70% compute load, every policy";
    }

    @Override
    public void run(ExperimentContext ctx) {
        CsvTable csv = new CsvTable("linkGbps", "policy", "meanJctSeconds", "p99JctSeconds", "inferenceMeanJctSeconds",
                "linkUtilization", "meanLinkWaitSeconds", "wallSeconds");
        Charts all = new Charts("Mean JCT vs link bandwidth (all jobs, load 0.7)", "link (Gbit/s)", "mean JCT (s)", true, true);
        Charts inf = new Charts("Mean JCT vs link bandwidth (inference jobs, load 0.7)", "link (Gbit/s)", "mean JCT (s)", true, true);
        SimWorkload base = ctx.atLoad(LOAD);
        for (double gbps : GBPS) {
            SimWorkload w = base.withCluster(base.cluster().withLinkBitsPerSecond(gbps * 1e9));
            Map<String, SimResult> results = new LinkedHashMap<>();
            for (String policy : ctx.policies()) {
                SimResult r = ctx.run(policy, w, "fig4 " + gbps + " Gbit/s");
                results.put(policy, r);
                csv.add(gbps, policy, r.meanJctSeconds(), r.p99JctSeconds(), r.inference().mean(), r.linkUtilization(),
                        r.meanLinkWaitSeconds(), r.wallSeconds());
                all.add(policy, gbps, r.meanJctSeconds());
                inf.add(policy, gbps, r.inference().mean());
            }
            ctx.md("%n### %s Gbit/s%n", gbps);
            Fig3LoadSweep.table(ctx, results);
        }
        csv.write(ctx.out().resolve("fig4.csv"));
        all.write(ctx.out().resolve("fig4a-all-jobs.png"));
        inf.write(ctx.out().resolve("fig4b-inference.png"));
        ctx.md("%nPlots: `fig4a-all-jobs.png`, `fig4b-inference.png`; data: `fig4.csv`. Nona* keeps the one table solved at "
                + "load %.1f on the workload file's link.", Scenario.REFERENCE_LOAD);
        ctx.writeSummary("Figure 4: mean JCT vs link bandwidth");
    }
}
