package dev.nona.cli;

import dev.nona.check.Checks;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.bench.PipelineBenchmark;
import dev.nona.bench.TableSizeBenchmark;
import dev.nona.controller.DecisionFormat;
import dev.nona.topics.Topics;
import dev.nona.bench.StateBenchmark;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nona bench ...}: benchmarks of the controller's Flink pipeline. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmark the controller's Flink pipeline.",
        subcommands = {BenchCommand.Pipeline.class, BenchCommand.State.class, BenchCommand.Table.class,
                BenchLatencyCommand.class, BenchRecoveryCommand.class, BenchSoakCommand.class, BenchChaosCommand.class})
final class BenchCommand implements Runnable {
    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    /** {@code nona bench pipeline --records N}: identity vs placement throughput, one process, one run. */
    @Command(name = "pipeline", mixinStandardHelpOptions = true,
            description = "Identity (deserialise, serialise) vs placement (deserialise, place, serialise) throughput.")
    static final class Pipeline implements Callable<Integer> {
        @Option(names = "--records", required = true, description = "Requests per job")
        long records;

        @Option(names = "--parallelism", defaultValue = "1", description = "Parallelism of both jobs (default ${DEFAULT-VALUE})")
        int parallelism;

        @Option(names = "--request-rate", defaultValue = "100000", description = "Requests per second of event time in the "
                + "placement job; every server reports once per second of event time (default ${DEFAULT-VALUE})")
        long requestRate;

        @Option(names = "--decisions-format", defaultValue = "full",
                description = "full or compact: how decisions are written (decisions.format) (default ${DEFAULT-VALUE})")
        String decisionsFormat;

        @Option(names = "--warmup-records", description = "Requests per job in an unmeasured run of both jobs "
                + "first, in the same JVM, so that the measured run is compiled code (default: --records; 0 for none)")
        Long warmupRecords;

        @Mixin
        Workload workload;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            Checks.atLeastOne(records, "--records");
            long warmup = warmupRecords == null ? records : warmupRecords;
            if (warmup < 0) {
                throw new IllegalArgumentException("--warmup-records (" + warmup + ") must be >= 0");
            }
            Checks.atLeastOne(requestRate, "--request-rate");
            DecisionFormat format = DecisionFormat.parse("--decisions-format", decisionsFormat);
            PipelineBenchmark.Result r = PipelineBenchmark.run(records, parallelism, workload.models, workload.servers,
                    requestRate, format, warmup);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("records", r.records());
            out.put("warmupRecords", warmup);
            out.put("identityRecordsPerSecond", Math.round(r.identityRecordsPerSecond()));
            out.put("placementRecordsPerSecond", Math.round(r.placementRecordsPerSecond()));
            out.put("placementToIdentity", Math.round(1000 * r.placementRecordsPerSecond() / r.identityRecordsPerSecond()) / 1000.0);
            out.put("parallelism", r.parallelism());
            out.put("models", r.models());
            out.put("identityBytesWritten", r.identityBytes());
            out.put("placementBytesWritten", r.placementBytes());
            out.put("decisionsFormat", r.format().key());
            out.put("placementBytesPerDecision", Math.round(10.0 * r.placementBytes() / r.records()) / 10.0);
            out.put("servers", r.servers());
            out.put("requestsPerEventSecond", r.requestsPerEventSecond());
            out.put("telemetryReports", r.telemetryReports());
            // the placement operator's thread (it and the decision writer) on its CPU clock: other work on the machine
            // does not count, as it does in the wall-clock figure above
            out.put("placementThreadCpuSeconds", Math.round(1000 * r.placementThreadCpuSeconds()) / 1000.0);
            out.put("placementRecordsPerThreadCpuSecond", Math.round(r.records() / r.placementThreadCpuSeconds()));
            // the thread that generates and parses the requests and the reports, and sends them to placement
            out.put("inputThreadCpuSeconds", Math.round(1000 * r.inputThreadCpuSeconds()) / 1000.0);
            out.put("reportsPerServerPerSecond", Math.round(1000 * r.telemetryReports() / (double) r.servers()
                    / r.placementSeconds()) / 1000.0);
            spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(out));
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code nona bench state --records N}: checkpointed state size of the whole controller after N requests. */
    @Command(name = "state", mixinStandardHelpOptions = true,
            description = "Run the whole controller over N generated requests; report checkpointed state sizes.")
    static final class State implements Callable<Integer> {
        @Option(names = "--records", required = true, description = "Requests")
        long records;

        @Option(names = "--state-backend", defaultValue = "hashmap", description = "hashmap or rocksdb (default ${DEFAULT-VALUE})")
        String stateBackend;

        @Mixin
        Workload workload;

        @Spec
        CommandSpec spec;

        @Option(names = "--requests-per-second", defaultValue = "0",
                description = "Rate limit of the request source, 0 for none (default ${DEFAULT-VALUE})")
        long requestsPerSecond;

        @Option(names = "--set", description = "Controller configuration KEY=VALUE (docs/controller.md), repeatable")
        Map<String, String> settings = new LinkedHashMap<>();

        @Option(names = "--heartbeat-seconds", defaultValue = "5",
                description = "Seconds of telemetry heartbeats (keeps the job alive after the requests) (default ${DEFAULT-VALUE})")
        int heartbeatSeconds;

        @Override
        public Integer call() throws Exception {
            Checks.atLeastOne(records, "--records");
            StateBenchmark.Result r = StateBenchmark.run(records, stateBackend, workload.models, workload.servers, requestsPerSecond,
                    heartbeatSeconds, settings);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("records", r.records());
            out.put("seconds", Math.round(r.seconds() * 10) / 10.0);
            out.put("checkpoints", r.checkpoints());
            out.put("maxCheckpointBytes", r.maxStateBytes());
            out.put("lastCheckpointBytes", r.lastStateBytes());
            out.put("stateBackend", r.stateBackend());
            out.put("settings", settings);
            out.put("lastCheckpointBytesByTask", r.lastStateBytesByTask());
            out.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
            spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(out));
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code nona bench table --models M --servers N}: solve time and record size of one table. */
    @Command(name = "table", mixinStandardHelpOptions = true,
            description = "Solves one table for M generated models on N servers, then re-solves it after a drift; prints the "
                    + "solve times (wall and CPU) and the record size.")
    static final class Table implements Callable<Integer> {
        @Option(names = "--models", defaultValue = "1000", description = "Models in the generated catalog (default ${DEFAULT-VALUE})")
        int models;

        @Option(names = "--servers", defaultValue = "10000", description = "Servers (default ${DEFAULT-VALUE})")
        int servers;

        @Option(names = "--classes", defaultValue = "1", description = "Server classes: more than 1 gives speeds, memories "
                + "and model weights, solved by the optimiser directly (default ${DEFAULT-VALUE})")
        int classes;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            Checks.atLeastOne(models, "--models");
            Checks.atLeastOne(servers, "--servers");
            Checks.atLeastOne(classes, "--classes");
            if (servers < classes) {
                throw new IllegalArgumentException("--servers (" + servers + ") must be >= --classes (" + classes + ")");
            }
            TableSizeBenchmark.Result r = TableSizeBenchmark.run(models, servers, classes);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("models", r.models());
            out.put("servers", r.servers());
            out.put("classes", classes);
            out.put("feasible", r.feasible());
            out.put("solveMillis", r.solveMillis());
            out.put("solveCpuMillis", r.solveCpuMillis());
            out.put("resolveMillis", r.resolveMillis());
            out.put("resolveCpuMillis", r.resolveCpuMillis());
            out.put("tableRecordBytes", r.tableRecordBytes());
            out.put("tableJsonBytes", r.tableJsonBytes());
            out.put("topicLimitBytes", Topics.TABLE_MAX_BYTES);
            spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(out));
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /**
     * The options of every benchmark that sends requests to a running controller at a fixed rate (latency, recovery,
     * soak, chaos): the rate and the controller's settings.
     */
    static final class ControllerRun {
        @Option(names = "--rate", defaultValue = "1000", description = "Requests per second (default ${DEFAULT-VALUE})")
        double rate;

        @Option(names = "--set", description = "Controller configuration KEY=VALUE (docs/controller.md), repeatable")
        Map<String, String> settings = new LinkedHashMap<>();

        /**
         * The controller's settings of a run: its own {@code controller.id}, sources from their latest offsets (a
         * reused broker's earlier requests are not this run's), {@code fixed}, then the {@code --set} ones.
         */
        Map<String, String> controllerSettings(String controllerId, Map<String, String> fixed) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("controller.id", controllerId);
            m.put("source.start-from-earliest", "false");
            m.putAll(fixed);
            m.putAll(settings);
            return m;
        }
    }

    /** The generated workload every benchmark takes: which models the requests name and how many servers there are. */
    static final class Workload {
        @Option(names = "--models", split = ",", defaultValue = "resnet18,alexnet",
                description = "Models the requests name, round robin: zoo names or fig1 (default ${DEFAULT-VALUE})")
        List<String> models;

        @Option(names = "--servers", defaultValue = "16", description = "Servers in the cluster (default ${DEFAULT-VALUE})")
        int servers;
    }
}
