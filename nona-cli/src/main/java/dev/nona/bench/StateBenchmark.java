package dev.nona.bench;

import dev.nona.controller.ControllerConfig;
import dev.nona.controller.ControllerEnvironment;
import dev.nona.controller.ControllerJob;
import dev.nona.controller.loop.ControlInput;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.placement.NonaPlacerFactory;
import dev.nona.controller.serde.ControlJson;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.controller.source.ControlRecord;
import dev.nona.controller.source.RequestParser;
import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import java.io.IOException;
import dev.nona.topics.record.PlacementDecision;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * The memory benchmark ({@code bin/nona bench state}): runs the whole controller job (rate windows, control loop
 * with the real optimiser, broadcast placement) on its own MiniCluster over N generated requests, with
 * checkpoints to a temporary directory, and reads back the size of every completed checkpoint. State is bounded by
 * models x servers x open windows, so the largest checkpoint after 10 million requests should be no larger than
 * after 10 thousand. The generated event time advances 1 ms per request, so 10 million requests cross 1,000
 * windows of 10 s. Telemetry heartbeats (one per server per second of wall time, for {@code heartbeatSeconds})
 * keep the job alive after the requests end, so that checkpoints are taken after the last request too.
 */
public final class StateBenchmark {
    /** What one run measured. */
    public record Result(long records, double seconds, int checkpoints, long maxStateBytes, long lastStateBytes,
            String stateBackend, Map<String, Long> lastStateBytesByTask) {}

    private StateBenchmark() {}

    public static Result run(long records, String stateBackend, List<String> models, int servers, long requestsPerSecond,
            int heartbeatSeconds, Map<String, String> extraConfig) throws Exception {
        Path dir = Files.createTempDirectory("nona-state-bench");
        Map<String, String> settings = new TreeMap<>(Map.of(
                "bootstrap.servers", "unused:9092",
                "rates.window", "10s",
                "watermark.out-of-orderness", "100ms",
                "watermark.idleness", "1s",
                "checkpoint.interval", "500ms",
                "checkpoint.dir", dir.toUri().toString(),
                "state.backend", stateBackend,
                "flink.restart-strategy.type", "none"));
        settings.putAll(extraConfig);
        ControllerConfig config = ControllerConfig.fromMap(settings);
        Configuration conf = ControllerEnvironment.configuration(config);
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(128));
        List<BroadcastUpdate> snapshot = PipelineBenchmark.snapshot(models, servers);
        MiniClusterConfiguration mcc = new MiniClusterConfiguration.Builder().setConfiguration(conf)
                .setNumTaskManagers(1).setNumSlotsPerTaskManager(2).build();
        try (MiniCluster cluster = new MiniCluster(mcc)) {
            cluster.start();
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(1);
            new ControllerJob(config, sources(records, models, snapshot, requestsPerSecond, heartbeatSeconds), sinks(),
                    new NonaTableSolver(false), new NonaPlacerFactory()).addTo(env);
            long t0 = System.nanoTime();
            JobID id = cluster.submitJob(env.getStreamGraph()).get().getJobID();
            JobResult result = cluster.requestJobResult(id).get();
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (!result.isSuccess()) {
                throw new IllegalStateException("state benchmark job failed", result.getSerializedThrowable()
                        .map(t -> (Throwable) t).orElse(null));
            }
            ArchivedExecutionGraph graph = cluster.getArchivedExecutionGraph(id).get();
            List<Long> sizes = new ArrayList<>();
            Map<String, Long> byTask = new TreeMap<>();
            for (AbstractCheckpointStats c : graph.getCheckpointStatsSnapshot().getHistory().getCheckpoints()) {
                if (c.getStatus() == CheckpointStatsStatus.COMPLETED) {
                    if (sizes.isEmpty()) {
                        for (var task : c.getAllTaskStateStats()) {
                            byTask.put(graph.getAllVertices().get(task.getJobVertexId()).getName(), task.getStateSize());
                        }
                    }
                    sizes.add(c.getStateSize());
                }
            }
            // history is newest first
            long last = sizes.isEmpty() ? 0 : sizes.get(0);
            long max = sizes.stream().mapToLong(Long::longValue).max().orElse(0);
            int completed = (int) graph.getCheckpointStatsSnapshot().getCounts().getNumberOfCompletedCheckpoints();
            return new Result(records, seconds, completed, max, last, stateBackend, byTask);
        } finally {
            deleteRecursively(dir);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static ControllerJob.Sources sources(long records, List<String> models, List<BroadcastUpdate> snapshot,
            long requestsPerSecond, int heartbeatSeconds) {
        GeneratedRequests generated = new GeneratedRequests(models);
        RequestParser parser = new RequestParser("inference-requests");
        GeneratorFunction<Long, RequestRecord> requests = i -> parser.parse(generated.map(i), 0, i);
        RateLimiterStrategy limit = requestsPerSecond > 0 ? RateLimiterStrategy.perSecond(requestsPerSecond)
                : RateLimiterStrategy.noOp();
        // Generator functions travel as Java-serialised objects: carry the records as JSON text.
        List<String> servers = new ArrayList<>();
        List<String> catalog = new ArrayList<>();
        for (BroadcastUpdate u : snapshot) {
            if (u.server() != null) {
                servers.add(ControlJson.write(u.server()));
            } else if (u.catalog() != null) {
                catalog.add(ControlJson.write(u.catalog()));
            }
        }
        int n = servers.size();
        // Heartbeat k re-sends server k % n, event time advancing 1 s per round.
        GeneratorFunction<Long, ControlRecord> heartbeats = k -> {
            ServerTelemetry s = ControlJson.read(servers.get((int) (k % n)), ServerTelemetry.class);
            long t = GeneratedRequests.BASE + (k / n) * 1000;
            ServerTelemetry next = ServerTelemetry.of(s.serverId(), s.up(), s.opsPerSecond(), s.ongoingRequests(),
                    s.cachedModels(), s.linkBitsPerSecond(), t, s.backlogSeconds());
            return new ControlRecord(ControlInput.of(next), null, t);
        };
        GeneratorFunction<Long, ControlRecord> entries = k -> new ControlRecord(
                ControlInput.of(ControlJson.read(catalog.get((int) (long) k), ModelCatalogEntry.class)), null, 0);
        return new ControllerJob.Sources(
                new DataGeneratorSource<>(requests, records, limit, TypeInformation.of(RequestRecord.class)),
                new DataGeneratorSource<>(heartbeats, (long) n * Math.max(1, heartbeatSeconds), RateLimiterStrategy.perSecond(n),
                        JsonRecordTypeInfo.of(ControlRecord.class)),
                new DataGeneratorSource<>(entries, catalog.size(), JsonRecordTypeInfo.of(ControlRecord.class)));
    }

    private static ControllerJob.Sinks sinks() {
        return new ControllerJob.Sinks(new DiscardingSink<PlacementDecision>(), new DiscardingSink<ControllerTable>(),
                new DiscardingSink<ControllerEvent>(), new DiscardingSink<DeadLetter>());
    }
}
