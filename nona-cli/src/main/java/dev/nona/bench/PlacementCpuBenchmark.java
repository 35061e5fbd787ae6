package dev.nona.bench;

import dev.nona.controller.DecisionFormat;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.placement.DecisionExplanations;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.placement.NonaPlacerFactory;
import dev.nona.controller.placement.RequestPlacer;
import dev.nona.controller.placement.ServerReports;
import dev.nona.placement.LiveServers;
import dev.nona.controller.serde.DecisionWriter;
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
 * not count): the pipeline benchmark's table and servers, R requests per second of event time with every server
 * reporting once per second of event time in between (as {@link InterleavedTelemetry} lays them out), each request
 * placed as {@code PlacementFunction} does (policy-model's {@link LiveServers}, the table's placers) and written as the
 * decision sink does ({@link DecisionWriter}); the reports update the server mapping in place. Prints requests per
 * CPU second, reports included. Usage: {@code PlacementCpuBenchmark RECORDS SERVERS RATE [full|compact]}.
 */
public final class PlacementCpuBenchmark {
    private PlacementCpuBenchmark() {}

    public static void main(String[] args) {
        long records = Long.parseLong(args[0]);
        int servers = Integer.parseInt(args[1]);
        long rate = Long.parseLong(args[2]);
        boolean compact = args.length > 3 && DecisionFormat.parse("format", args[3]) == DecisionFormat.COMPACT;
        List<String> models = List.of("resnet18", "alexnet");
        List<BroadcastUpdate> snapshot = PipelineBenchmark.snapshot(models, servers);
        ControllerTable table = snapshot.stream().filter(u -> u.table() != null).findFirst().orElseThrow().table();
        LiveServers mapping = new LiveServers(3, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        snapshot.stream().filter(u -> u.server() != null).forEach(u -> ServerReports.apply(mapping, u.server(), 0));
        NonaPlacerFactory factory = new NonaPlacerFactory();
        List<RequestPlacer> placers = new ArrayList<>();
        for (String m : models) {
            CatalogDag dag = snapshot.stream().filter(u -> u.catalog() != null && u.catalog().model().equals(m))
                    .findFirst().orElseThrow().catalog().dag();
            placers.add(factory.create(m, dag, table, 1e13));
        }
        DecisionWriter writer = new DecisionWriter();
        SplittableRandom rng = new SplittableRandom(1);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long block = rate + servers;
        long indices = InterleavedTelemetry.indices(records, rate, servers);
        long bytes = 0;
        long reports = 0;
        long placed = 0;
        long start = cpu.getCurrentThreadCpuTime();
        for (long index = 0; index < indices; index++) {
            long b = index / block;
            long j = index % block;
            long reportsBefore = j * servers / block;
            long requestsBefore = j - reportsBefore;
            if (requestsBefore + b * rate >= records) {
                continue;
            }
            if ((j + 1) * servers / block > reportsBefore) {
                int k = (int) reportsBefore;
                long eventTime = GeneratedRequests.BASE + b * 1000 + j * 1000 / block;
                ServerReports.apply(mapping, ServerTelemetry.of("s" + k, true, 1.0e13, k % 4,
                        List.of(new CachedModel(models.get(k % models.size()), 1 << 30)), 1.0e10, eventTime), 0);
                reports++;
                continue;
            }
            long i = b * rate + requestsBefore;
            long eventTime = GeneratedRequests.BASE + i * 1000 / rate;
            RequestPlacer placer = placers.get((int) (i % models.size()));
            PlacementDecision d = DecisionExplanations.decide(placer, mapping, "r-" + i, "t" + (i & 15), table.version(),
                    false, eventTime, rng, compact);
            bytes += writer.write(d).length;
            placed++;
        }
        double seconds = (cpu.getCurrentThreadCpuTime() - start) / 1e9;
        System.out.printf("{\"servers\":%d,\"requests\":%d,\"reports\":%d,\"cpuSeconds\":%.3f,\"requestsPerCpuSecond\":%d,\"bytes\":%d}%n",
                servers, placed, reports, seconds, Math.round(placed / seconds), bytes);
    }
}
