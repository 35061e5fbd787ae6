package dev.nona.sim.experiment;

import dev.nona.optimize.Solution;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.report.Charts;
import dev.nona.sim.report.CsvTable;
import dev.nona.sim.workload.NonaSolver;
import java.util.Arrays;
import java.util.Locale;

/**
 * Table III of Nona: the optimiser's solve time as the cluster grows (16-128 servers, then far beyond), at a
 * constant 70% load (rates grow with the servers). The problem's size does not depend on the number of servers.
 * Decima's training time is not reproduced (it needs Decima's RL training).
 */
public final class Table3SolveTime implements Experiment {
    static final int[] SERVERS = {16, 32, 48, 64, 80, 96, 112, 128, 256, 1024, 4096, 16384, 65536};
    static final int REPEATS = 5;

    @Override
    public String name() {
        return "table3";
    }

    @Override
    public String description() {
        return "optimiser solve time vs cluster size 16-65536 servers at 70% load";
    }

    @Override
    public void run(ExperimentContext ctx) {
        NonaSolver solver = NonaSolver.of(ctx.loaded(), ctx.costModel());
        CsvTable csv = new CsvTable("servers", "medianSolveMillis", "minSolveMillis", "maxSolveMillis", "objective", "rho", "feasible");
        Charts chart = new Charts("Optimiser solve time vs servers (load 0.7)", "servers", "solve time (ms)", true, true);
        ctx.md("| servers | median solve (ms) | min | max | objective | rho |");
        ctx.md("| --- | --- | --- | --- | --- | --- |");
        for (int i = 0; i < 10; i++) {
            solver.solve(ctx.workload().withLoad(0.7)); // warm the JIT
        }
        for (int n : SERVERS) {
            SimWorkload w = ctx.workload().withCluster(ctx.workload().cluster().withServers(n)).withLoad(0.7);
            double[] ms = new double[REPEATS];
            Solution s = null;
            for (int i = 0; i < REPEATS; i++) {
                solver.solve(w);
                s = solver.lastSolution();
                ms[i] = s.solveMillis();
            }
            Arrays.sort(ms);
            double median = ms[REPEATS / 2];
            csv.add(n, median, ms[0], ms[REPEATS - 1], s.objective(), s.rho(), s.feasible());
            chart.add("Nona", n, median);
            ctx.md("| %d | %.1f | %.1f | %.1f | %.4g | %.3f |", n, median, ms[0], ms[REPEATS - 1], s.objective(), s.rho());
            ctx.progress(String.format(Locale.ROOT, "table3 %d servers: %.1f ms", n, median));
        }
        csv.write(ctx.out().resolve("table3.csv"));
        chart.write(ctx.out().resolve("table3.png"));
        ctx.md("%nSolve time of `NonaOptimizer` (single thread, median of %d) for the whole workload. The paper reports 13 s for "
                + "every size with its Lagrangian solver and 108-889 h of Decima training; Decima is not reproduced here.", REPEATS);
        ctx.writeSummary("Table III: solve time vs cluster size");
    }
}
