package dev.nona.cli;

import dev.nona.check.Checks;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.dashboard.CatalogBytes;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.KafkaClientConfig;
import dev.nona.topics.record.CommandKind;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona status --bootstrap H:P}: the controller as its topics show it, as JSON: the current table (the newest
 * on {@code placement-tables}), the servers with their states (from their latest {@code cluster-telemetry} report
 * and the drains in force: {@code up}, {@code down}, {@code silent} — no report for longer than
 * {@code --liveness-timeout} — or {@code drained}; warm models by {@code model-catalog}'s bytes, as the controller
 * counts them), the rates the current table was solved for, the commands in
 * force (the latest per scope on {@code controller-commands}), and the last events.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Print the controller's current table, servers and their states, rates, commands in force and "
                + "last events, as JSON, read from its topics.")
final class StatusCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (overrides bootstrap.servers from --config)")
    String bootstrap;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Kafka client properties (security.protocol, sasl.*, ssl.*, ...)")
    Path config;

    @Option(names = "--events", paramLabel = "N", defaultValue = "20",
            description = "how many of the last events to print (default: ${DEFAULT-VALUE})")
    int events;

    @Option(names = "--liveness-timeout", paramLabel = "MS", defaultValue = "3000",
            description = "a server whose latest report is older is silent (default: ${DEFAULT-VALUE}, the "
                    + "controller's cluster.liveness-timeout)")
    long livenessTimeoutMillis;

    @Option(names = "--timeout-seconds", paramLabel = "S", defaultValue = "30",
            description = "how long to wait for the cluster (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    /** Telemetry records read per partition for the servers' latest reports. */
    static final long TELEMETRY_TAIL = 20_000;

    private final ObjectMapper json = new ObjectMapper();

    @Override
    public Integer call() throws Exception {
        if (events < 0) {
            throw new IllegalArgumentException("--events (" + events + ") must be >= 0");
        }
        Checks.atLeastOne(timeoutSeconds, "--timeout-seconds");
        Checks.atLeastOne(livenessTimeoutMillis, "--liveness-timeout");
        Properties props = KafkaClientConfig.load(config, bootstrap);
        long now = System.currentTimeMillis();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("bootstrap", props.getProperty("bootstrap.servers"));
        out.put("at", now);
        try (TopicTail tail = new TopicTail(props, Duration.ofSeconds(timeoutSeconds))) {
            ActiveCommands commands = commands(tail.last(Topics.CONTROLLER_COMMANDS.name(), Long.MAX_VALUE));
            JsonNode table = table(tail.last(Topics.PLACEMENT_TABLES.name(), 100));
            out.put("table", table);
            CatalogBytes catalog = new CatalogBytes();
            for (ConsumerRecord<byte[], byte[]> r : tail.last(Topics.MODEL_CATALOG.name(), Long.MAX_VALUE)) {
                catalog.accept(r.key(), r.value());
            }
            out.put("servers", servers(tail.last(Topics.CLUSTER_TELEMETRY.name(), TELEMETRY_TAIL), commands.drained(),
                    catalog, now));
            out.put("rates", table == null ? Map.of() : table.get("rates"));
            List<JsonNode> active = new ArrayList<>();
            for (ControllerCommand c : commands.byScope().values()) {
                active.add(json.readTree(JsonSerde.forTopic(Topics.CONTROLLER_COMMANDS).serialize(c)));
            }
            out.put("activeCommands", active);
            List<JsonNode> last = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : tail.last(Topics.CONTROLLER_EVENTS.name(), events)) {
                last.add(json.readTree(r.value()));
            }
            out.put("events", last);
        }
        spec.commandLine().getOut().println(json.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out));
        return 0;
    }

    /** The commands in force: the latest valid command per scope, in topic order (rollbacks are not kept). */
    static ActiveCommands commands(List<ConsumerRecord<byte[], byte[]>> records) {
        JsonSerde<ControllerCommand> serde = JsonSerde.forTopic(Topics.CONTROLLER_COMMANDS);
        ActiveCommands active = ActiveCommands.NONE;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Parsed<ControllerCommand> p = serde.parse(r.value());
            if (p.ok() && p.value().kind() != CommandKind.ROLLBACK_TABLE) {
                ActiveCommands next = active.with(p.value());
                try {
                    next.rules();
                    active = next;
                } catch (IllegalArgumentException e) {
                    // the controller rejects it too (a dead letter): not in force
                }
            }
        }
        return active;
    }

    /** The newest table: its fields, with the solved table's choices parsed ({@code choices}); null if none. */
    private JsonNode table(List<ConsumerRecord<byte[], byte[]>> records) throws Exception {
        JsonSerde<PlacementTableRecord> serde = JsonSerde.forTopic(Topics.PLACEMENT_TABLES, Integer.MAX_VALUE);
        PlacementTableRecord newest = null;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Parsed<PlacementTableRecord> p = serde.parse(r.value());
            if (p.ok() && (newest == null || p.value().version() > newest.version())) {
                newest = p.value();
            }
        }
        if (newest == null) {
            return null;
        }
        ObjectNode t = (ObjectNode) json.readTree(newest.tableJson());
        JsonNode choices = t.remove("tableJson");
        if (choices != null && choices.isTextual()) {
            t.set("choices", json.readTree(choices.asText()));
        }
        t.put("tableId", newest.tableId());
        return t;
    }

    /**
     * Each server's latest report and state; its warm models are those it holds whole by the catalog's bytes, as the
     * controller counts them, and the models it holds only some of are {@code partlyHeldModels}.
     */
    private List<Map<String, Object>> servers(List<ConsumerRecord<byte[], byte[]>> records, Set<String> drained,
            CatalogBytes catalog, long now) {
        JsonSerde<ServerTelemetry> serde = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
        Map<String, ServerTelemetry> latest = new TreeMap<>();
        Map<String, Long> heard = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Parsed<ServerTelemetry> p = serde.parse(r.value());
            if (p.ok()) {
                ServerTelemetry before = latest.get(p.value().serverId());
                if (before == null || before.eventTime() <= p.value().eventTime()) {
                    latest.put(p.value().serverId(), p.value());
                    heard.put(p.value().serverId(), r.timestamp());
                }
            }
        }
        for (String d : drained) {
            latest.putIfAbsent(d, null);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<String, ServerTelemetry> e : latest.entrySet()) {
            ServerTelemetry s = e.getValue();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", e.getKey());
            m.put("state", state(s, drained.contains(e.getKey()), heard.getOrDefault(e.getKey(), 0L), now));
            if (s != null) {
                m.put("opsPerSecond", s.opsPerSecond());
                m.put("ongoingRequests", s.ongoingRequests());
                m.put("warmModels", catalog.whole(s.cachedModels()));
                m.put("partlyHeldModels", catalog.partly(s.cachedModels()));
                m.put("lastReportAt", s.eventTime());
            }
            out.add(m);
        }
        return out;
    }

    /** drained (an operator's), down (its report says so), silent (no report within the timeout), else up. */
    private String state(ServerTelemetry s, boolean drained, long heardAt, long now) {
        if (drained) {
            return "drained";
        }
        if (s == null || !s.up() || s.opsPerSecond() == 0) {
            return "down";
        }
        return now - heardAt > livenessTimeoutMillis ? "silent" : "up";
    }
}
