package dev.nona.jmh.placement;

import dev.nona.bench.GeneratedRequests;
import dev.nona.bench.PipelineBenchmark;
import dev.nona.controller.DecisionFormat;
import dev.nona.controller.catalog.CatalogDags;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.placement.DecisionExplanations;
import dev.nona.controller.placement.NonaPlacerFactory;
import dev.nona.controller.placement.RequestPlacer;
import dev.nona.controller.placement.ServerReports;
import dev.nona.controller.serde.DecisionWriter;
import dev.nona.placement.LiveServers;
import dev.nona.workload.ColdStartCost;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

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
 * <p>{@code memory} runs the rule of a heterogeneous, memory-bound cluster instead (what
 * {@code placement.cold-start.*} and telemetry with {@code serverClass} and {@code memoryBytes} turn on): the
 * catalog gives each model's {@code sizeBytes} (resnet18 46.8 MB, alexnet 244 MB, as in {@code examples/}), the
 * servers alternate between a class {@code large} (16 GB, the reported speed) and a class {@code small} (200 MB, a
 * quarter of it, so alexnet fits there only split), each holding one model whole (a small one resnet18), and a
 * part not held costs a cold start of 0.2 s + bytes / 2 GB/s (the rent's half-life at its default). Every part is
 * then mapped by the least expected finish with rent or buy ({@code ExpectedFinishRule}, a scan of the servers), not
 * by the warm pools' tree. {@code BUSY} (0 to 1, default 0; {@code memory} mode only) is the fraction of the servers
 * (by index: every tenth server up to it, server $k$ when $k \bmod 10 < 10 \cdot$ BUSY) that report two requests and
 * 1 s of work in every report, so that the rule's scan meets busy servers too; at 0.9 the idle tenth ($k \bmod 10 =
 * 9$) are all small, too small for alexnet.
 *
 * <p>Run, after {@code mvn -B -o -q -pl benchmarks -am package -DskipTests}:
 * {@code java -cp "benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*"
 * dev.nona.jmh.placement.PlacementCpuBenchmark RECORDS SERVERS RATE [full|compact] [plain|memory [BUSY]]}, e.g.
 * {@code 3000000 16 100000}.
 */
public final class PlacementCpuBenchmark {
    private static final List<String> MODELS = List.of("resnet18", "alexnet");
    /** The models' bytes in {@code memory} mode, as in {@code examples/memory-bound.json}. */
    private static final Map<String, Double> MODEL_BYTES = Map.of("resnet18", 46_758_048.0, "alexnet", 244_403_360.0);
    private static final double LARGE_BYTES = 16e9;
    private static final double SMALL_BYTES = 2e8;

    private PlacementCpuBenchmark() {}

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: PlacementCpuBenchmark RECORDS SERVERS RATE [full|compact] [plain|memory [BUSY]]");
            System.exit(2);
        }
        long records = Long.parseLong(args[0]);
        int servers = Integer.parseInt(args[1]);
        long rate = Long.parseLong(args[2]);
        boolean compact = args.length > 3 && DecisionFormat.parse("format", args[3]) == DecisionFormat.COMPACT;
        boolean memory = args.length > 4 && mode(args[4]);
        double busy = args.length > 5 ? Double.parseDouble(args[5]) : 0;
        if (!(busy >= 0 && busy <= 1) || busy > 0 && !memory) {
            throw new IllegalArgumentException("BUSY must be in [0, 1], in memory mode only; was " + args[5]);
        }
        List<BroadcastUpdate> snapshot = PipelineBenchmark.snapshot(MODELS, servers);
        ControllerTable table = snapshot.stream().filter(u -> u.table() != null).findFirst().orElseThrow().table();
        LiveServers mapping = new LiveServers(3, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        ToDoubleFunction<String> modelBytes = memory ? m -> MODEL_BYTES.getOrDefault(m, 0.0) : null;
        if (memory) {
            mapping.coldStart(new ColdStartCost(0.2, 2e9));
        }
        snapshot.stream().filter(u -> u.server() != null)
                .forEach(u -> ServerReports.apply(mapping, report(u.server(), memory, busy), null, modelBytes, 0));
        NonaPlacerFactory factory = new NonaPlacerFactory();
        List<RequestPlacer> placers = new ArrayList<>();
        for (String m : MODELS) {
            CatalogDag dag = snapshot.stream().filter(u -> u.catalog() != null && u.catalog().model().equals(m))
                    .findFirst().orElseThrow().catalog().dag();
            if (memory) {
                dag = CatalogDags.sized(ModelCatalogEntry.of(m, dag, MODEL_BYTES.get(m)));
            }
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
                    ServerTelemetry t = ServerTelemetry.of("s" + k, true, 1.0e13, k % 4,
                            List.of(new CachedModel(MODELS.get(k % MODELS.size()), 1 << 30)), 1.0e10, eventTime);
                    ServerReports.apply(mapping, report(t, memory, busy), null, modelBytes, 0);
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
        System.out.printf("{\"mode\":\"%s\",\"busy\":%.2f,\"servers\":%d,\"requests\":%d,\"reports\":%d,\"cpuSeconds\":%.3f,"
                + "\"requestsPerCpuSecond\":%d,\"bytes\":%d}%n",
                memory ? "memory" : "plain", busy, servers, placed, reports, seconds, Math.round(placed / seconds), bytes);
    }

    private static boolean mode(String arg) {
        return switch (arg) {
            case "plain" -> false;
            case "memory" -> true;
            default -> throw new IllegalArgumentException("mode must be plain or memory, was '" + arg + "'");
        };
    }

    /**
     * {@code t} as the benchmark's server reports it: unchanged, or in {@code memory} mode with its class by its
     * index's parity ({@code large} even, {@code small} odd, at a quarter of the speed), that class's memory, and one
     * model held whole (resnet18 on a small server, alternately resnet18 and alexnet on the large ones); a busy one
     * (see {@code BUSY}) reports two requests and 1 s of work.
     */
    private static ServerTelemetry report(ServerTelemetry t, boolean memory, double busy) {
        if (!memory) {
            return t;
        }
        int k = Integer.parseInt(t.serverId().substring(1));
        boolean small = k % 2 == 1;
        String warm = small ? MODELS.get(0) : MODELS.get(k / 2 % MODELS.size());
        boolean loaded = k % 10 < 10 * busy;
        return ServerTelemetry.of(t.serverId(), t.up(), small ? t.opsPerSecond() / 4 : t.opsPerSecond(),
                loaded ? 2 : t.ongoingRequests(), List.of(new CachedModel(warm, Math.round(MODEL_BYTES.get(warm)))),
                t.linkBitsPerSecond(), t.eventTime(), loaded ? 1.0 : null)
                .withClass(small ? "small" : "large", small ? SMALL_BYTES : LARGE_BYTES);
    }
}
