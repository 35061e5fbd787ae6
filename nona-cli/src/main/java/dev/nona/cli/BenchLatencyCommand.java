package dev.nona.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.bench.LatencyBenchmark;
import dev.nona.controller.ControllerConfig;
import dev.nona.controller.DecisionDelivery;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona bench latency}: end-to-end decision latency (request sent → decision received, read_committed) with
 * the real broker and the controller on a MiniCluster, at a fixed request rate ({@link LatencyBenchmark}).
 */
@Command(name = "latency", mixinStandardHelpOptions = true,
        description = "Request-to-decision latency: real broker, controller on a MiniCluster, fixed-rate producer, "
                + "read_committed consumer.")
final class BenchLatencyCommand implements Callable<Integer> {
    @Option(names = "--seconds", defaultValue = "30", description = "Measured seconds (default ${DEFAULT-VALUE})")
    int seconds;

    @Mixin
    BenchCommand.Workload workload;

    @Mixin
    BenchCommand.ControllerRun run;

    @Option(names = "--delivery", defaultValue = "at-least-once",
            description = "decisions.delivery: at-least-once or exactly-once (default ${DEFAULT-VALUE})")
    String delivery;

    @Option(names = "--checkpoint-interval", defaultValue = "10s",
            description = "checkpoint.interval, e.g. 200ms or 10s (default ${DEFAULT-VALUE})")
    String checkpointInterval;

    @Option(names = "--warmup-seconds", defaultValue = "3",
            description = "Seconds at the rate before measuring, not counted (default ${DEFAULT-VALUE})")
    int warmupSeconds;

    @Option(names = "--broker-dir", paramLabel = "DIR",
            description = "Directory for the throwaway broker's log (default: memory, /dev/shm, when it has room for "
                    + "the run, else the system's temporary directory)")
    Path brokerDir;

    @Option(names = "--bad-input-rate", paramLabel = "N", defaultValue = "0",
            description = "Malformed records per second sent beside the measured requests (5 MB values, 5,000-deep "
                    + "JSON, 30,000-task DAGs, binary; default ${DEFAULT-VALUE}: none)")
    double badInputRate;

    @Option(names = "--bad-input-at-broker-defaults",
            description = "Leave the topics at the broker's default record limit (1 MiB), which refuses the 5 MB values "
                    + "and the large DAGs; without it they are let through to the controller (the worst case)")
    boolean badInputAtBrokerDefaults;

    @Option(names = "--bad-input-count", paramLabel = "N", defaultValue = "0",
            description = "With --bad-input-rate: send only N malformed records, starting at the middle of the "
                    + "measured seconds (a burst; --bad-input-count 1000 --bad-input-rate 1000 is one second of "
                    + "1,000); default ${DEFAULT-VALUE}: through all the measured seconds. Every run reports the "
                    + "good requests' latency in that window (window*)")
    long badInputCount;

    @Option(names = "--no-request-read-back", negatable = false,
            description = "Do not read inference-requests back: no Kafka-alone leg (requestRead* left out of the "
                    + "JSON), and no second consumer of every request and malformed record beside the controller")
    boolean noRequestReadBack;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        DecisionDelivery mode = DecisionDelivery.parse("--delivery", delivery);
        Map<String, String> probe = new LinkedHashMap<>(run.settings);
        probe.put("decisions.delivery", delivery);
        probe.put("checkpoint.interval", checkpointInterval);
        probe.put("bootstrap.servers", "unused:9092");
        // Validates every setting (the errors name the key and value) before a broker is started.
        ControllerConfig config = ControllerConfig.fromMap(probe);
        Optional<Path> broker = Optional.ofNullable(brokerDir).map(d -> OutputPaths.directory("--broker-dir", d));
        LatencyBenchmark.Result r = LatencyBenchmark.run(new LatencyBenchmark.Settings(run.rate, seconds,
                workload.servers, workload.models, mode, config.checkpointInterval(), warmupSeconds, run.settings,
                broker, badInputRate, badInputAtBrokerDefaults, !noRequestReadBack,
                badInputCount));
        spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(json(r)));
        spec.commandLine().getOut().flush();
        return 0;
    }

    static Map<String, Object> json(LatencyBenchmark.Result r) {
        LatencyBenchmark.Settings s = r.settings();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("delivery", s.delivery().key());
        out.put("rate", s.rate());
        out.put("seconds", s.seconds());
        out.put("requests", r.requests());
        out.put("decided", r.decided());
        out.put("duplicates", r.duplicates());
        out.put("p50Millis", r.latency().p50());
        out.put("p90Millis", r.latency().p90());
        out.put("p99Millis", r.latency().p99());
        out.put("maxMillis", r.latency().max());
        out.put("servers", s.servers());
        out.put("checkpointIntervalMillis", s.checkpointInterval().toMillis());
        out.put("checkpointStorage", s.extra().getOrDefault("checkpoint.dir", "").isBlank() ? "jobmanager"
                : s.extra().get("checkpoint.dir"));
        out.put("warmupSeconds", s.warmupSeconds());
        out.put("maxSendLagMillis", r.maxSendLagMillis());
        out.put("requestReadBack", s.readBackRequests());
        if (s.readBackRequests()) {
            out.put("requestReadP50Millis", r.requestsRead().p50());
            out.put("requestReadP99Millis", r.requestsRead().p99());
        }
        out.put("requestAckP50Millis", r.requestsAcked().p50());
        out.put("requestAckP99Millis", r.requestsAcked().p99());
        out.put("maxMillisBySecond", r.maxMillisBySecond());
        if (s.readBackRequests()) {
            out.put("requestReadMaxMillisBySecond", r.requestReadMaxMillisBySecond());
        }
        out.put("requestAckMaxMillisBySecond", r.requestAckMaxMillisBySecond());
        out.put("measuredFromEpochMillis", r.measuredFromEpochMillis());
        out.put("brokerDir", r.brokerDir().toString());
        out.put("brokerStorage", r.brokerStorage());
        out.put("settings", s.extra());
        out.put("badInputRate", s.badInputRate());
        out.put("badInputAtBrokerDefaults", s.badInputAtBrokerDefaults());
        out.put("badInputSent", r.badInput().sent());
        out.put("badInputRefused", r.badInput().refused());
        out.put("deadLettered", r.badInput().deadLettered());
        out.put("badInputCount", s.badInputCount());
        if (s.badInputCount() > 0) {
            out.put("badInputBurstMillis", r.burstMillis());
        }
        int[] window = s.burstWindow();
        out.put("windowFromSecond", window[0]);
        out.put("windowToSecond", window[1]);
        out.put("windowP50Millis", r.window().p50());
        out.put("windowP99Millis", r.window().p99());
        out.put("windowMaxMillis", r.window().max());
        out.put("p99MillisBySecond", r.p99MillisBySecond());
        return out;
    }
}
