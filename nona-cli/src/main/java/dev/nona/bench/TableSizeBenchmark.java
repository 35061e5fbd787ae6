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
import dev.nona.zoo.ModelZoo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
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
 */
public final class TableSizeBenchmark {
    /** What one run measured. */
    public record Result(int models, int servers, long solveMillis, boolean feasible, long tableRecordBytes,
            long tableJsonBytes, long solveCpuMillis, long resolveMillis, long resolveCpuMillis) {}

    private TableSizeBenchmark() {}

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
