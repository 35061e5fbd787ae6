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
 * Time to solve Nona's optimisation for the five zoo models together ({@link ZooProblem}), including compiling
 * the problem (not the DAG analysis, which is cached per model in a controller): 80 servers, 10 Gbit/s, 70% load,
 * in the three formulations ({@code default} = server-queueing; {@code controller-mapping}, what the controller
 * solves). Read the {@code p0.50} line for
 * the median.
 *
 * <p>Run: {@code bin/jmh SolveBenchmark -wi 3 -i 5 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SolveBenchmark {
    @Param({"default", "paper", "controller-mapping"})
    public String formulation;

    private NonaProblem problem;

    @Setup
    public void setUp() {
        CostModel costModel = formulation.equals("default") ? CostModel.DEFAULT : CostModel.named(formulation);
        problem = ZooProblem.requireFeasible(ZooProblem.build(80, costModel));
    }

    @Benchmark
    public Solution solve() {
        return NonaOptimizer.solve(problem);
    }
}
