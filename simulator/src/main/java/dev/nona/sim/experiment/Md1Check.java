package dev.nona.sim.experiment;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimConfig;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.engine.Simulator;
import dev.nona.sim.policy.baseline.LocalPolicy;
import dev.nona.sim.report.Charts;
import dev.nona.sim.report.CsvTable;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Where theory is exact: background transfers alone on the workload's link form an M/D/1 queue, whose mean wait
 * is $\rho S / (2(1-\rho))$ (Pollaczek-Khinchine with deterministic service). Transfers of the workload's
 * background size (10 MB if it has none).
 */
public final class Md1Check implements Experiment {
    static final double[] RHOS = {0.1, 0.3, 0.5, 0.7, 0.8, 0.9};

    @Override
    public String name() {
        return "md1";
    }

    @Override
    public String description() {
        return "background communication only: simulated link wait vs the M/D/1 formula";
    }

    @Override
    public void run(ExperimentContext ctx) {
        double bits = ctx.workload().classes().stream().mapToDouble(SimJobClass::commBits).max().orElse(0);
        bits = bits > 0 ? bits : 8e7;
        double s = bits / ctx.workload().cluster().linkBitsPerSecond();
        long jobs = 20 * ctx.jobs(); // transfers are cheap: 400,000 at the default 20,000
        CsvTable csv = new CsvTable("rho", "md1WaitSeconds", "simulatedWaitSeconds", "relativeError", "linkUtilization");
        Charts chart = new Charts("Link wait: simulated vs M/D/1", "rho", "mean wait (s)", false, true);
        ctx.md("Background transfers of %.3g bits (S = %.4g s), %d measured per point.%n", bits, s, jobs);
        ctx.md("| rho | M/D/1 wait (s) | simulated (s) | error |");
        ctx.md("| --- | --- | --- | --- |");
        for (double rho : RHOS) {
            SimWorkload w = new SimWorkload(ctx.workload().cluster(), List.of(SimJobClass.backgroundComm("background-comm", rho / s, bits)));
            SimResult r = new Simulator(w, new LocalPolicy(new SplittableRandom(1)), "none", new SimConfig(jobs, jobs / 20, ctx.seed(), Long.MAX_VALUE)).run();
            double md1 = rho * s / (2 * (1 - rho));
            double err = r.meanLinkWaitSeconds() / md1 - 1;
            csv.add(rho, md1, r.meanLinkWaitSeconds(), err, r.linkUtilization());
            chart.add("M/D/1", rho, md1);
            chart.add("simulated", rho, r.meanLinkWaitSeconds());
            ctx.md("| %.1f | %.5g | %.5g | %+.2f%% |", rho, md1, r.meanLinkWaitSeconds(), 100 * err);
            ctx.progress(String.format(Locale.ROOT, "md1 rho %.1f: formula %.5g s, simulated %.5g s", rho, md1, r.meanLinkWaitSeconds()));
        }
        csv.write(ctx.out().resolve("md1.csv"));
        chart.write(ctx.out().resolve("md1.png"));
        ctx.writeSummary("M/D/1 check of the link");
    }
}
