package dev.nona.jmh.optimize;

import dev.nona.optimize.CostModel;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.SolveCancelledException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How late a cancelled solve returns: the zoo problem ({@link ZooProblem}) with its five models copied
 * {@code copies} times (default 200: 1,000 job classes) on 16 servers; each run gets a deadline at a quarter of
 * the fastest full solve's time and the time from the deadline to {@link SolveCancelledException} is measured.
 * Prints JSON: {@code {"models", "fullSolveMillis", "runs", "cancelled", "overshootMillisMax",
 * "overshootMillisMedian"}}.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar:... dev.nona.bench.optimize.CancelLatency [copies] [runs]}.
 */
public final class CancelLatency {
    private CancelLatency() {}

    public static void main(String[] args) {
        int copies = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        NonaProblem zoo = ZooProblem.build(16, CostModel.DEFAULT);
        List<JobClass> jobs = new ArrayList<>();
        for (int c = 0; c < copies; c++) {
            for (JobClass j : zoo.jobs()) {
                jobs.add(new JobClass(j.name() + "-" + c, j.ratePerSecond() / copies, j.nodes(), j.source(), j.subgraphs()));
            }
        }
        NonaProblem problem = new NonaProblem(jobs, zoo.cluster(), zoo.background(), zoo.costModel());
        long full = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) { // warm-up; the fastest full solve sets the deadlines
            long t0 = System.nanoTime();
            NonaOptimizer.solve(problem);
            full = Math.min(full, System.nanoTime() - t0);
        }
        double[] overshoot = new double[runs];
        int cancelled = 0;
        for (int r = 0; r < runs; r++) {
            long deadline = System.nanoTime() + full / 4;
            try {
                NonaOptimizer.solve(problem, NonaOptimizer.Options.DEFAULT, () -> System.nanoTime() - deadline >= 0);
            } catch (SolveCancelledException e) {
                overshoot[cancelled++] = (System.nanoTime() - deadline) / 1e6;
            }
        }
        double[] measured = Arrays.copyOf(overshoot, cancelled);
        Arrays.sort(measured);
        System.out.printf("{\"models\":%d,\"fullSolveMillis\":%.1f,\"runs\":%d,\"cancelled\":%d,"
                + "\"overshootMillisMax\":%.2f,\"overshootMillisMedian\":%.2f}%n", jobs.size(), full / 1e6, runs,
                cancelled, cancelled == 0 ? Double.NaN : measured[cancelled - 1],
                cancelled == 0 ? Double.NaN : measured[cancelled / 2]);
    }
}
