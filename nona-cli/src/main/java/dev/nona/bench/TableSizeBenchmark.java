package dev.nona.bench;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.sink.TableRecordSerializer;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.dag.DagAnalysis;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.Problems;
import dev.nona.optimize.Solution;
import dev.nona.placement.PlacementTables;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import dev.nona.zoo.ModelZoo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The table benchmark ({@code bin/nona bench table}): solves one table for a generated catalog of M models (the
 * zoo's graphs in turn, renamed {@code m0, m1, ...}, at 1 request/s each) on N servers, and writes it as the
 * controller writes it to {@code placement-tables}: reports the solve time and the record's size in bytes (what
 * the producer's {@code max.request.size} and the topic's {@code max.message.bytes} must admit). Then re-solves as
 * the controller does after a drift (the same solver, so the models' analyses are cached; every third model's rate
 * x1.3, the others x0.9; the first table as the current one, carried over and evaluated at the new rates). Times are
 * wall clock and the solving thread's CPU time (on a shared machine the CPU time is the comparable figure).
 *
 * <p>With {@code classes} $> 1$ ({@link #run(int, int, int)}) the servers form that many classes (speeds from 1e13 down
 * to 1.25e12 ops/s, memories from 16 GB down to 256 MB, both geometric; counts as even as possible), the models carry
 * their fp32 weights ({@link #ZOO_SIZE_BYTES}) and cold starts cost 0.5 s + bytes at 2 GB/s: policy-model's optimiser
 * is called directly, as the controller's solver would (each distinct graph analysed once and shared by the models
 * that have it, then the solve), since the controller's solver has no cold-start term.
 *
 * <p>Both runs analyse each of the zoo's five graphs once: the catalog's models share them, as a catalog's
 * fine-tuned variants of one architecture do. A catalog of M distinct graphs pays one analysis per model more
 * (0.8-1.0 ms each on the zoo's graphs, from the two paths' first solves with and without sharing).
 */
public final class TableSizeBenchmark {
    /** What one run measured. */
    public record Result(int models, int servers, long solveMillis, boolean feasible, long tableRecordBytes,
            long tableJsonBytes, long solveCpuMillis, long resolveMillis, long resolveCpuMillis) {}

    /** The zoo models' fp32 weights in bytes (parameters &times; 4): what the heterogeneous benchmarks give them. */
    public static final Map<String, Double> ZOO_SIZE_BYTES = Map.of("alexnet", 244e6, "vgg16", 553e6, "resnet18", 47e6,
            "densenet121", 32e6, "gpt2", 548e6);

    private TableSizeBenchmark() {}

    /** {@link #run(int, int)} on {@code classes} server classes (class comment); 1 is {@link #run(int, int)}. */
    public static Result run(int models, int servers, int classes) {
        if (classes == 1) {
            return run(models, servers);
        }
        if (models < 1 || classes < 1 || servers < classes) {
            throw new IllegalArgumentException("models (" + models + ") and classes (" + classes + ") must be >= 1 and servers ("
                    + servers + ") >= classes");
        }
        Cluster cluster = Cluster.ofClasses(classes(servers, classes), 1.0e10, new ColdStartCost(0.5, 2e9));
        List<String> zoo = ModelZoo.names();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        List<JobClass> jobs = new ArrayList<>();
        Map<String, JobClass> byGraph = new HashMap<>();
        for (int m = 0; m < models; m++) {
            String graph = zoo.get(m % zoo.size());
            JobClass shared = byGraph.computeIfAbsent(graph, g ->
                    Problems.jobClass(g, 1.0, DagAnalysis.analyse(ModelZoo.load(g)), ZOO_SIZE_BYTES.get(g)));
            jobs.add(shared.withName("m" + m));
        }
        NonaProblem problem = new NonaProblem(jobs, cluster, Background.NONE, CostModel.CONTROLLER_MAPPING);
        Solution solution = NonaOptimizer.solve(problem);
        long solveCpuMillis = (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
        long solveMillis = (System.nanoTime() - start) / 1_000_000;
        if (!solution.feasible()) {
            return new Result(models, servers, solveMillis, false, 0, 0, solveCpuMillis, 0, 0);
        }
        long tableJsonBytes = PlacementTables.from(problem, solution, 1, System.currentTimeMillis()).toJson().length();
        List<JobClass> drifted = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            drifted.add(jobs.get(i).withRate(i % 3 == 0 ? 1.3 : 0.9));
        }
        long restart = System.nanoTime();
        long cpuRestart = threads.getCurrentThreadCpuTime();
        NonaOptimizer.solve(problem.withJobs(drifted));
        long resolveCpuMillis = (threads.getCurrentThreadCpuTime() - cpuRestart) / 1_000_000;
        long resolveMillis = (System.nanoTime() - restart) / 1_000_000;
        return new Result(models, servers, solveMillis, true, 0, tableJsonBytes, solveCpuMillis, resolveMillis, resolveCpuMillis);
    }

    /** {@code n} classes over {@code servers} servers: speeds 1e13 down to 1.25e12, memories 16 GB down to 256 MB. */
    static List<ServerClass> classes(int servers, int n) {
        List<ServerClass> out = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            double f = n == 1 ? 0 : c / (double) (n - 1);
            int count = servers / n + (c < servers % n ? 1 : 0);
            out.add(new ServerClass("c" + c, count, 1e13 * Math.pow(1.0 / 8, f), 16e9 * Math.pow(1.0 / 64, f)));
        }
        return out;
    }

    public static Result run(int models, int servers) {
        if (models < 1 || servers < 1) {
            throw new IllegalArgumentException("models (" + models + ") and servers (" + servers + ") must be >= 1");
        }
        SolveInput input = input(models, servers);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        NonaTableSolver solver = new NonaTableSolver(false);
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        SolveResult r = solver.solve(input, null);
        long solveCpuMillis = (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
        long solveMillis = (System.nanoTime() - start) / 1_000_000;
        if (r.error() != null || !r.feasible()) {
            return new Result(models, servers, solveMillis, false, 0, 0, solveCpuMillis, 0, 0);
        }
        ControllerTable table = new ControllerTable(1, false, System.currentTimeMillis(), "benchmark", input.rates(),
                input.cluster(), r.objective(), r.linkLoad(), r.predictedJctSeconds(), r.tableJson());
        PlacementTableRecord record = new TableRecordSerializer("placement-tables", "nona-controller").toRecord(table);
        byte[] bytes = new JsonSerde<>(PlacementTableRecord.class, Integer.MAX_VALUE).serialize(record);
        Map<String, Double> drifted = new TreeMap<>();
        int i = 0;
        for (String model : input.rates().keySet()) {
            drifted.put(model, input.rates().get(model) * (i++ % 3 == 0 ? 1.3 : 0.9));
        }
        long restart = System.nanoTime();
        long cpuRestart = threads.getCurrentThreadCpuTime();
        solver.solve(new SolveInput(input.dags(), drifted, input.cluster(), "drift"), table);
        long resolveCpuMillis = (threads.getCurrentThreadCpuTime() - cpuRestart) / 1_000_000;
        long resolveMillis = (System.nanoTime() - restart) / 1_000_000;
        return new Result(models, servers, solveMillis, true, bytes.length, r.tableJson().length(), solveCpuMillis,
                resolveMillis, resolveCpuMillis);
    }

    /** M zoo models in turn (renamed), 1 request/s each, on N servers of 1e13 ops/s and 10 Gbit/s links. */
    public static SolveInput input(int models, int servers) {
        List<String> zoo = ModelZoo.names();
        Map<String, CatalogDag> dags = new TreeMap<>();
        Map<String, Double> rates = new TreeMap<>();
        for (int m = 0; m < models; m++) {
            var dag = ModelZoo.load(zoo.get(m % zoo.size()));
            String name = "m" + m;
            dags.put(name, CatalogDags.toCatalogDag(name, dag));
            rates.put(name, 1.0);
        }
        List<String> ids = new ArrayList<>(servers);
        for (int s = 0; s < servers; s++) {
            ids.add("server-" + s);
        }
        return new SolveInput(dags, rates, new ClusterSnapshot(ids, 1.0e13, 1.0e10), "benchmark");
    }
}
