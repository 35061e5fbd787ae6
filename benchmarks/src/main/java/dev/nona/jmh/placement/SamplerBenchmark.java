package dev.nona.jmh.placement;

import dev.nona.jmh.optimize.ZooProblem;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.placement.PlacementSampler;
import dev.nona.placement.PlacementTable;
import dev.nona.placement.PlacementTables;
import dev.nona.placement.UniformServerPolicy;
import dev.nona.optimize.Solution;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Online placement decisions per second on one thread: one operation places one request (source server, a
 * triplet per subgraph, distinct servers for the parts, a server for every original task), from the table solved
 * for the zoo workload at 80 servers (or a uniform table, where every subgraph draws and uses up to six servers).
 * {@code model = mix} cycles through the five models.
 *
 * <p>Run: {@code bin/jmh SamplerBenchmark -wi 3 -i 5 -f 1}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SamplerBenchmark {
    @Param({"mix", "gpt2", "resnet18"})
    public String model;

    /** {@code solved}: the optimiser's table; {@code uniform}: every admissible triplet equally likely (worst case). */
    @Param({"solved", "uniform"})
    public String table;

    private PlacementSampler sampler;
    private UniformServerPolicy servers;
    private SplittableRandom rnd;
    private int[] out;
    private int[] models;
    private int next;

    @Setup
    public void setUp() {
        NonaProblem p = ZooProblem.build(80, CostModel.DEFAULT);
        Solution solution = this.table.equals("uniform") ? NonaOptimizer.evaluate(p, uniform(p)) : NonaOptimizer.solve(p);
        PlacementTable table = PlacementTables.from(p, solution, 1, 0);
        sampler = new PlacementSampler(table);
        servers = UniformServerPolicy.ofRange(80);
        rnd = new SplittableRandom(42);
        int max = 0;
        for (int m = 0; m < table.models().size(); m++) {
            max = Math.max(max, sampler.tasks(m).size());
        }
        out = new int[max];
        models = model.equals("mix")
                ? IntStream.range(0, table.models().size()).toArray()
                : new int[] {sampler.modelIndex(model)};
    }

    /** Equal probability on every triplet of every subgraph. */
    private static List<List<double[]>> uniform(NonaProblem p) {
        Solution shape = NonaOptimizer.solve(p);
        return shape.jobs().stream().map(j -> j.subgraphs().stream().map(sg -> {
            double[] t = new double[sg.triplets().size()];
            Arrays.fill(t, 1.0 / t.length);
            return t;
        }).toList()).toList();
    }

    @Benchmark
    public int[] place() {
        int m = models[next];
        next = next + 1 == models.length ? 0 : next + 1;
        sampler.place(m, servers, rnd, out);
        return out;
    }
}
