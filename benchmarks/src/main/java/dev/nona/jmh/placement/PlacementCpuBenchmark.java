package dev.nona.jmh.placement;

import dev.nona.bench.GeneratedRequests;
import dev.nona.bench.PipelineBenchmark;
import dev.nona.controller.DecisionFormat;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.placement.DecisionExplanations;
import dev.nona.controller.placement.NonaPlacerFactory;
import dev.nona.controller.placement.RequestPlacer;
import dev.nona.controller.placement.ServerReports;
import dev.nona.controller.serde.DecisionWriter;
import dev.nona.placement.LiveServers;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The placement operator's work without Flink, on this thread's CPU clock (so that other processes on the machine do
 * not count): the pipeline benchmark's table and servers ({@link PipelineBenchmark#snapshot}, resnet18 and alexnet),
 * R requests per second of event time with every server reporting once per second of event time in between (laid
 * out as {@code bench pipeline} lays them out: each second a block of R + N records, record j of a block the report
 * of server $\lfloor jN/(R+N) \rfloor$ when that floor steps at j + 1), each request placed as
 * {@code PlacementFunction} does (policy-model's {@link LiveServers}, the table's placers) and written as the
 * decision sink does ({@link DecisionWriter}); the reports update the server mapping in place. Prints one JSON line:
 * requests per CPU second, reports included. A documented main rather than a JMH benchmark because its figure is
 * thread CPU time (as {@code CpuTimeReport}'s), comparable across runs on a shared machine.
 *
 * <p>Run, after {@code mvn -B -o -q -pl benchmarks -am package -DskipTests}:
 * {@code java -cp "benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*"
 * dev.nona.bench.placement.PlacementCpuBenchmark RECORDS SERVERS RATE [full|compact]}, e.g.
 * {@code 3000000 16 100000}.
 */
public final class PlacementCpuBenchmark {
    private static final List<String> MODELS = List.of("resnet18", "alexnet");

    private PlacementCpuBenchmark() {}

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: PlacementCpuBenchmark RECORDS SERVERS RATE [full|compact]");
            System.exit(2);
        }
        long records = Long.parseLong(args[0]);
        int servers = Integer.parseInt(args[1]);
        long rate = Long.parseLong(args[2]);
        boolean compact = args.length > 3 && DecisionFormat.parse("format", args[3]) == DecisionFormat.COMPACT;
        List<BroadcastUpdate> snapshot = PipelineBenchmark.snapshot(MODELS, servers);
        ControllerTable table = snapshot.stream().filter(u -> u.table() != null).findFirst().orElseThrow().table();
        LiveServers mapping = new LiveServers(3, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        snapshot.stream().filter(u -> u.server() != null).forEach(u -> ServerReports.apply(mapping, u.server(), 0));
        NonaPlacerFactory factory = new NonaPlacerFactory();
        List<RequestPlacer> placers = new ArrayList<>();
        for (String m : MODELS) {
            CatalogDag dag = snapshot.stream().filter(u -> u.catalog() != null && u.catalog().model().equals(m))
                    .findFirst().orElseThrow().catalog().dag();
            placers.add(factory.create(m, dag, table, 1e13));
        }
        DecisionWriter writer = new DecisionWriter();
        SplittableRandom rng = new SplittableRandom(1);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long block = rate + servers;
        long bytes = 0;
        long reports = 0;
        long placed = 0;
        long start = cpu.getCurrentThreadCpuTime();
        for (long b = 0; b * rate < records; b++) { // one block per second of event time
            for (long j = 0; j < block; j++) {
                long reportsBefore = j * servers / block;
                long requestsBefore = j - reportsBefore;
                if (requestsBefore + b * rate >= records) {
                    break; // after the last request
                }
                if ((j + 1) * servers / block > reportsBefore) {
                    int k = (int) reportsBefore;
                    long eventTime = GeneratedRequests.BASE + b * 1000 + j * 1000 / block;
                    ServerReports.apply(mapping, ServerTelemetry.of("s" + k, true, 1.0e13, k % 4,
                            List.of(new CachedModel(MODELS.get(k % MODELS.size()), 1 << 30)), 1.0e10, eventTime), 0);
                    reports++;
                    continue;
                }
                long i = b * rate + requestsBefore;
                long eventTime = GeneratedRequests.BASE + i * 1000 / rate;
                RequestPlacer placer = placers.get((int) (i % MODELS.size()));
                PlacementDecision d = DecisionExplanations.decide(placer, mapping, "r-" + i, "t" + (i & 15),
                        table.version(), false, eventTime, rng, compact);
                bytes += writer.write(d).length;
                placed++;
            }
        }
        double seconds = (cpu.getCurrentThreadCpuTime() - start) / 1e9;
        System.out.printf("{\"servers\":%d,\"requests\":%d,\"reports\":%d,\"cpuSeconds\":%.3f,"
                + "\"requestsPerCpuSecond\":%d,\"bytes\":%d}%n",
                servers, placed, reports, seconds, Math.round(placed / seconds), bytes);
    }
}
