package dev.nona.bench;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.DecisionFormat;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.placement.BroadcastUpdateTypeInfo;
import dev.nona.controller.placement.NonaPlacerFactory;
import dev.nona.controller.placement.PlacementFunction;
import dev.nona.controller.serde.DecisionWriter;
import dev.nona.controller.source.RejectedRecords;
import dev.nona.controller.source.RequestParser;
import dev.nona.controller.source.RequestRecord;
import dev.nona.placement.LiveServers;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.zoo.ModelZoo;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * The pipeline benchmark ({@code bin/nona bench pipeline}): two Flink jobs, one after the other in one process, over
 * the same N generated requests and the same topic serde. The identity job deserialises and serialises each
 * request; the placement job deserialises, places with the controller's {@link PlacementFunction} (broadcast state,
 * Nona table, warm-first server mapping) and serialises the decision as the controller's decision sink does
 * ({@link DecisionWriter}: the topic serde's JSON, written from cached fragments). Each job counts what it wrote (an
 * accumulator), and the run fails if either wrote fewer than N records. Throughput is N over the job's net runtime
 * (deployment included, the same for both).
 *
 * <p>During the placement job the cluster is live: every server reports once per second of event time, the
 * reports interleaved with the requests ({@link InterleavedTelemetry}; requests at {@code requestsPerSecond} per
 * second of event time, so with a rate near the measured one every server reports about once per wall-clock
 * second). Each report reaches every placement subtask through the broadcast side, as in the controller.
 */
public final class PipelineBenchmark {
    /** What one run measured. */
    public record Result(long records, double identityRecordsPerSecond, double placementRecordsPerSecond,
            int parallelism, List<String> models, long identityBytes, long placementBytes, int servers,
            long telemetryReports, long requestsPerEventSecond, double placementSeconds, DecisionFormat format,
            double placementThreadCpuSeconds, double inputThreadCpuSeconds) {}

    /** Default requests per second of event time in the placement job: about the measured rate at 16 servers. */
    public static final long DEFAULT_REQUESTS_PER_SECOND = 100_000;

    private PipelineBenchmark() {}

    public static Result run(long records, int parallelism, List<String> models, int servers) throws Exception {
        return run(records, parallelism, models, servers, DEFAULT_REQUESTS_PER_SECOND);
    }

    /** One run, the placement job's requests at {@code requestsPerSecond} per second of event time. */
    public static Result run(long records, int parallelism, List<String> models, int servers, long requestsPerSecond)
            throws Exception {
        return run(records, parallelism, models, servers, requestsPerSecond, DecisionFormat.FULL);
    }

    /** As above, with decisions written in {@code format} ({@code decisions.format}). */
    public static Result run(long records, int parallelism, List<String> models, int servers, long requestsPerSecond,
            DecisionFormat format) throws Exception {
        return run(records, parallelism, models, servers, requestsPerSecond, format, 0);
    }

    /**
     * As above, after a warm-up: both jobs run once over {@code warmupRecords} requests, unmeasured, in this JVM
     * first, so that the measured jobs run compiled code (a 300,000-request placement job lasts about 2 s, and the
     * JIT compiler, busy for most of that in a fresh JVM, took about one of the machine's two cores: the same build
     * varied up to 1.8x from one fresh JVM to the next).
     */
    public static Result run(long records, int parallelism, List<String> models, int servers, long requestsPerSecond,
            DecisionFormat format, long warmupRecords) throws Exception {
        if (records < 1) {
            throw new IllegalArgumentException("records (" + records + ") must be >= 1");
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism (" + parallelism + ") must be >= 1");
        }
        if (warmupRecords < 0) {
            throw new IllegalArgumentException("warm-up records (" + warmupRecords + ") must be >= 0");
        }
        List<BroadcastUpdate> snapshot = snapshot(models, servers);
        if (warmupRecords > 0) {
            check("identity warm-up", identity(warmupRecords, parallelism, models), warmupRecords);
            check("placement warm-up", placement(warmupRecords, parallelism, models, snapshot, servers,
                    requestsPerSecond, format), warmupRecords);
        }
        JobExecutionResult identity = identity(records, parallelism, models);
        JobExecutionResult placement = placement(records, parallelism, models, snapshot, servers, requestsPerSecond,
                format);
        check("identity", identity, records);
        check("placement", placement, records);
        return new Result(records, records / seconds(identity), records / seconds(placement), parallelism,
                List.copyOf(models), identity.<Long>getAccumulatorResult("bytes"),
                placement.<Long>getAccumulatorResult("bytes"), servers,
                InterleavedTelemetry.reports(records, requestsPerSecond, servers), requestsPerSecond, seconds(placement),
                format, placement.<Long>getAccumulatorResult("cpuNanos") / 1e9,
                placement.<Long>getAccumulatorResult("inputCpuNanos") / 1e9);
    }

    private static JobExecutionResult identity(long records, int parallelism, List<String> models) throws Exception {
        StreamExecutionEnvironment env = environment(parallelism);
        JsonSerde<InferenceRequest> serde = new JsonSerde<>(InferenceRequest.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);
        requests(env, records, models)
                .map(r -> serde.serialize(r.request())).returns(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                .map(new Counted()).returns(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                .sinkTo(new DiscardingSink<>());
        return env.execute("bench-identity");
    }

    private static JobExecutionResult placement(long records, int parallelism, List<String> models,
            List<BroadcastUpdate> snapshot, int servers, long requestsPerSecond, DecisionFormat format) throws Exception {
        StreamExecutionEnvironment env = environment(parallelism);
        SingleOutputStreamOperator<RequestRecord> input = env.fromSource(new DataGeneratorSource<>(new Indices(),
                        InterleavedTelemetry.indices(records, requestsPerSecond, servers), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "requests-and-telemetry")
                .process(new InterleavedTelemetry(models, records, requestsPerSecond, servers))
                .returns(TypeInformation.of(RequestRecord.class));
        // the table and the catalog into the broadcast state, as the controller's topics would; the servers' statuses
        // only in the bootstrap snapshot (each used until that server's first report of the run), not sent again
        List<BroadcastUpdate> tableAndCatalog = snapshot.stream().filter(u -> u.server() == null).toList();
        DataStream<BroadcastUpdate> updates = env.fromData(tableAndCatalog, new BroadcastUpdateTypeInfo())
                .union(input.getSideOutput(InterleavedTelemetry.TELEMETRY));
        input.process(RejectedRecords.requests()).returns(TypeInformation.of(RequestRecord.class))
                .connect(updates.broadcast(PlacementFunction.BROADCAST_STATES))
                // no liveness timeout: on a machine shared with other work a report may come late, and the benchmark
                // measures the cost of placing and of taking the reports, not liveness (ServerLivenessITCase does)
                .process(new PlacementFunction("inference-requests", 3, new NonaPlacerFactory(), snapshot, 0,
                        LiveServers.NO_LIVENESS_TIMEOUT, format))
                .returns(TypeInformation.of(PlacementDecision.class))
                .map(new WriteDecisions()).returns(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                .map(new Counted()).returns(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                .sinkTo(new DiscardingSink<>());
        return env.execute("bench-placement");
    }

    /** The generated requests, parsed by the controller's own parser (rejects would go to dead letters). */
    private static DataStream<RequestRecord> requests(StreamExecutionEnvironment env, long records, List<String> models) {
        RequestParser parser = new RequestParser("inference-requests");
        return env.fromSource(new DataGeneratorSource<>(new GeneratedRequests(models), records,
                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO), WatermarkStrategy.noWatermarks(), "requests")
                .map(bytes -> parser.parse(bytes, -1, -1)).returns(TypeInformation.of(RequestRecord.class))
                .process(RejectedRecords.requests()).returns(TypeInformation.of(RequestRecord.class));
    }

    private static StreamExecutionEnvironment environment(int parallelism) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(PipelineOptions.OBJECT_REUSE, true);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        return env;
    }

    /** A table solved for the models (equal rates), servers warm for some models, the catalog. */
    public static List<BroadcastUpdate> snapshot(List<String> models, int servers) {
        List<BroadcastUpdate> out = new ArrayList<>();
        Map<String, CatalogDag> dags = new TreeMap<>();
        Map<String, Double> rates = new TreeMap<>();
        for (String m : models) {
            CatalogDag dag = m.equals(FIGURE_1) ? figure1() : CatalogDags.toCatalogDag(ModelZoo.load(m));
            dags.put(m, dag);
            rates.put(m, 50.0);
            out.add(BroadcastUpdate.of(ModelCatalogEntry.of(m, dag)));
        }
        List<String> ids = new ArrayList<>();
        for (int s = 0; s < servers; s++) {
            String id = "s" + s;
            ids.add(id);
            String warm = models.get(s % models.size());
            out.add(BroadcastUpdate.of(ServerTelemetry.of(id, true, 1.0e13, s % 4, List.of(new CachedModel(warm, 1 << 30)),
                    1.0e10, GeneratedRequests.BASE)));
        }
        ClusterSnapshot cluster = new ClusterSnapshot(ids, 1.0e13, 1.0e10);
        SolveInput input = new SolveInput(dags, rates, cluster, "benchmark");
        SolveResult r = new NonaTableSolver(false).solve(input, null);
        if (r.error() != null || !r.feasible()) {
            throw new IllegalStateException("benchmark table did not solve: " + (r.error() != null ? r.error() : "infeasible"));
        }
        out.add(BroadcastUpdate.of(new ControllerTable(1, false, System.currentTimeMillis(), "benchmark", rates, cluster,
                r.objective(), r.linkLoad(), r.predictedJctSeconds(), r.tableJson())));
        return out;
    }

    /** Name of the built-in model of Nona's Fig. 1 (four tasks), besides the zoo's models. */
    public static final String FIGURE_1 = "fig1";

    /** Nona's Fig. 1: tasks 1..4 of 1e9, 1e10, 1e10, 1e9 ops; 1->2, 2->4 carry 100 MB; 1->3, 3->4 carry 10 MB. */
    static CatalogDag figure1() {
        return new CatalogDag(FIGURE_1,
                List.of(new CatalogTask("t1", 1e9), new CatalogTask("t2", 1e10), new CatalogTask("t3", 1e10),
                        new CatalogTask("t4", 1e9)),
                List.of(new CatalogEdge("t1", "t2", 1e8), new CatalogEdge("t2", "t4", 1e8),
                        new CatalogEdge("t1", "t3", 1e7), new CatalogEdge("t3", "t4", 1e7)));
    }

    private static void check(String job, JobExecutionResult result, long records) {
        Long written = result.getAccumulatorResult("records");
        if (written == null || written != records) {
            throw new IllegalStateException(job + " job wrote " + written + " records, expected " + records);
        }
    }

    private static double seconds(JobExecutionResult result) {
        return result.getNetRuntime() / 1000.0;
    }

    /** The generator's index as it is. */
    static final class Indices implements GeneratorFunction<Long, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long map(Long index) {
            return index;
        }
    }

    /** Writes each decision as the controller's decision sink does ({@link DecisionWriter}, the topic's JSON). */
    static final class WriteDecisions extends RichMapFunction<PlacementDecision, byte[]> {
        private static final long serialVersionUID = 1L;
        private transient DecisionWriter writer;

        @Override
        public void open(OpenContext openContext) {
            writer = new DecisionWriter();
        }

        @Override
        public byte[] map(PlacementDecision decision) {
            return writer.write(decision);
        }
    }

    /**
     * Counts records and bytes written (accumulators), passing them on; also the CPU time of its thread from open to
     * close ({@code cpuNanos}): the whole chain before it runs in that thread (in the placement job, the placement
     * operator and the decision writer), and the CPU clock does not count other processes on the machine.
     */
    static final class Counted extends RichMapFunction<byte[], byte[]> {
        private static final long serialVersionUID = 1L;
        private transient LongCounter records;
        private transient LongCounter bytes;
        private transient LongCounter cpuNanos;
        private transient long cpuAtOpen;

        @Override
        public void open(OpenContext openContext) {
            records = new LongCounter();
            bytes = new LongCounter();
            cpuNanos = new LongCounter();
            getRuntimeContext().addAccumulator("records", records);
            getRuntimeContext().addAccumulator("bytes", bytes);
            getRuntimeContext().addAccumulator("cpuNanos", cpuNanos);
            cpuAtOpen = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        }

        @Override
        public void close() {
            cpuNanos.add(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuAtOpen);
        }

        @Override
        public byte[] map(byte[] value) {
            records.add(1);
            bytes.add(value.length);
            return value;
        }
    }
}
