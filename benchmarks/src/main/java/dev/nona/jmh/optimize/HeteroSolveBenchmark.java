package dev.nona.jmh.optimize;

import dev.nona.optimize.CostModel;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.Solution;
import java.util.concurrent.TimeUnit;
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
 * Time to solve the five zoo models on a heterogeneous cluster ({@link HeteroZooProblem}: three speed classes, memory
 * that VGG16 and GPT-2 do not fit whole on the small class, cold starts), including compiling the problem (memory
 * admissibility, per-class speeds, per-part cold starts), not the DAG analysis: the controller's formulation and the
 * uniform controller's. Goal: a median of at most 20 ms. Read the {@code p0.50} line.
 *
 * <p>Run: {@code bin/jmh HeteroSolveBenchmark -wi 3 -i 5 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HeteroSolveBenchmark {
    @Param({"controller-mapping", "controller-mapping-uniform"})
    public String formulation;

    private NonaProblem problem;

    @Setup
    public void setUp() {
        problem = ZooProblem.requireFeasible(HeteroZooProblem.build(CostModel.named(formulation)));
    }

    @Benchmark
    public Solution solve() {
        return NonaOptimizer.solve(problem);
    }
}
