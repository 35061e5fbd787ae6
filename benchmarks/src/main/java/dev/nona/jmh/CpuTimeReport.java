package dev.nona.jmh;

import dev.nona.jmh.optimize.HeteroZooProblem;
import dev.nona.jmh.optimize.ZooProblem;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.Solution;
import dev.nona.placement.PlacementSampler;
import dev.nona.placement.PlacementTable;
import dev.nona.placement.PlacementTables;
import dev.nona.placement.UniformServerPolicy;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The figures of the solve and sampler benchmarks measured in <em>thread CPU time</em> rather than wall-clock
 * time, for machines where other processes compete for the cores (JMH's wall-clock figures then mostly measure
 * the scheduler). Same workloads as {@code SolveBenchmark}, {@code SolveScalingBenchmark} and
 * {@code SamplerBenchmark}; warms up first. Not a substitute for JMH on a quiet machine.
 *
 * <p>Run: {@code java -cp "benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*"
 * dev.nona.jmh.CpuTimeReport [hetero]}; {@code hetero}: only the heterogeneous workload ({@code HeteroSolveBenchmark}'s)
 * against the homogeneous one.
 */
public final class CpuTimeReport {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private CpuTimeReport() {}

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("hetero")) {
            // the heterogeneous workload against the homogeneous one, in the controller's formulation
            report("solve, 80 servers, controller-mapping", ZooProblem.build(80, CostModel.CONTROLLER_MAPPING));
            for (CostModel cm : List.of(CostModel.CONTROLLER_MAPPING, CostModel.CONTROLLER_MAPPING_UNIFORM)) {
                report("solve, hetero (3 classes, memory, cold starts), " + cm.label(), HeteroZooProblem.build(cm));
            }
            return;
        }
        for (CostModel cm : List.of(CostModel.DEFAULT, CostModel.PAPER, CostModel.CONTROLLER_MAPPING)) {
            report("solve, 80 servers, " + (cm == CostModel.DEFAULT ? "default" : cm.label()), ZooProblem.build(80, cm));
        }
        for (int n : new int[] {16, 80, 1000, 10000}) {
            report("solve, rates of 16 servers on " + n + " servers, default", ZooProblem.withRatesOf(16, n, CostModel.DEFAULT));
        }
        NonaProblem p = ZooProblem.build(80, CostModel.DEFAULT);
        Solution solved = NonaOptimizer.solve(p);
        List<List<double[]>> uniform = solved.jobs().stream().map(j -> j.subgraphs().stream().map(sg -> {
            double[] t = new double[sg.triplets().size()];
            Arrays.fill(t, 1.0 / t.length);
            return t;
        }).toList()).toList();
        sampler("solved", PlacementTables.from(p, solved, 1, 0));
        sampler("uniform", PlacementTables.from(p, NonaOptimizer.evaluate(p, uniform), 1, 0));
    }

    private static void report(String what, NonaProblem p) {
        for (int i = 0; i < 300; i++) {
            NonaOptimizer.solve(p);
        }
        double[] ms = new double[301];
        for (int i = 0; i < ms.length; i++) {
            long c0 = MX.getCurrentThreadCpuTime();
            NonaOptimizer.solve(p);
            ms[i] = (MX.getCurrentThreadCpuTime() - c0) / 1e6;
        }
        Arrays.sort(ms);
        System.out.printf("%s: CPU ms per solve median %.3f, p90 %.3f%n", what, ms[150], ms[270]);
    }

    private static void sampler(String tableKind, PlacementTable table) {
        PlacementSampler s = new PlacementSampler(table);
        UniformServerPolicy servers = UniformServerPolicy.ofRange(80);
        SplittableRandom rnd = new SplittableRandom(1);
        int[] out = new int[table.models().stream().mapToInt(m -> m.tasks().size()).max().orElse(1)];
        for (String model : List.of("mix", "gpt2", "resnet18")) {
            int[] models = model.equals("mix") ? new int[] {0, 1, 2, 3, 4} : new int[] {s.modelIndex(model)};
            int k = 0;
            long checksum = 0;
            for (int i = 0; i < 3_000_000; i++) {
                s.place(models[k], servers, rnd, out);
                k = k + 1 == models.length ? 0 : k + 1;
                checksum += out[0];
            }
            int n = 5_000_000;
            long c0 = MX.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                s.place(models[k], servers, rnd, out);
                k = k + 1 == models.length ? 0 : k + 1;
                checksum += out[0];
            }
            double sec = (MX.getCurrentThreadCpuTime() - c0) / 1e9;
            System.out.printf("sampler, %s table, %s: %.2f M decisions per CPU-second (checksum %d)%n", tableKind, model, n / sec / 1e6, checksum);
        }
    }
}
