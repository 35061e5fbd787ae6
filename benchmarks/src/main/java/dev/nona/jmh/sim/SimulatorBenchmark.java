package dev.nona.jmh.sim;

import dev.nona.optimize.CostModel;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimConfig;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.engine.Simulator;
import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.PolicyContext;
import dev.nona.sim.policy.PolicyRegistry;
import dev.nona.sim.policy.table.WorkloadTableSolver;
import dev.nona.sim.workload.NonaSolver;
import dev.nona.sim.workload.SimWorkloads;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.DagSource;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.Workload;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Simulated events per second of the discrete-event simulator on the zoo workload (the five models, 80 servers,
 * 10 Gbit/s, inference:background 100:1) at 70% load. The {@code events} counter is the throughput to read.
 *
 * <p>Run: {@code java -cp "benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*"
 * org.openjdk.jmh.Main SimulatorBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(1)
public class SimulatorBenchmark {
    @Param({"nona", "local", "random", "spark-fair"})
    public String policy;

    private SimWorkload workload;
    private WorkloadTableSolver nona;

    /** Simulated events, counted per benchmark operation (one run). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Events {
        public long events;

        @Setup(Level.Iteration)
        public void clear() {
            events = 0;
        }
    }

    @Setup
    public void setUp() {
        List<ModelSpec> models = List.of("gpt2", "densenet121", "vgg16", "alexnet", "resnet18").stream()
                .map(n -> new ModelSpec(n, new DagSource.Zoo(n), 20)).toList();
        Workload w = new Workload(new Cluster(80, 1e11, 1e10), models,
                new Background(new Background.Comm(0.5, 4e7), new Background.Compute(0.5, 1e9)));
        SimWorkloads.Loaded loaded = SimWorkloads.from(w);
        workload = loaded.sim().withLoad(0.7);
        NonaSolver solver = new NonaSolver(loaded.analyses(), CostModel.PAPER);
        var table = solver.solve(workload);
        nona = x -> table;
    }

    @Benchmark
    public SimResult simulate(Events counter) {
        PolicyContext ctx = new PolicyContext(workload, 1, nona, nona, nona);
        Policy p = PolicyRegistry.create(policy, ctx);
        SimResult r = new Simulator(workload, p, policy, SimConfig.of(5_000, 1)).run();
        counter.events += r.events();
        return r;
    }
}
