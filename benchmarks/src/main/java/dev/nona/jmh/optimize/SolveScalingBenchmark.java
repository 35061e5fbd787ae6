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
 * Solve time against cluster size: the five zoo models ({@link ZooProblem}) at fixed rates (70% load on 16
 * servers) solved for 16 to 10,000 servers, default formulation. It should not depend on the number of servers
 * (Table III of the paper): the variables are relative placements, not servers. Read the {@code p0.50} line for
 * the median.
 *
 * <p>Run: {@code bin/jmh SolveScalingBenchmark -wi 3 -i 5 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SolveScalingBenchmark {
    /** Rates are those of a 70% load on 16 servers, so every cluster size solves the same, feasible, problem. */
    static final int RATE_SERVERS = 16;

    @Param({"16", "80", "1000", "10000"})
    public int servers;

    private NonaProblem problem;

    @Setup
    public void setUp() {
        problem = ZooProblem.requireFeasible(ZooProblem.withRatesOf(RATE_SERVERS, servers, CostModel.DEFAULT));
    }

    @Benchmark
    public Solution solve() {
        return NonaOptimizer.solve(problem);
    }
}
