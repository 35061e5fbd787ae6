package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.client.RecordPublisher;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code nona command ...} and {@code nona status} against a real in-process KRaft broker. */
final class CommandStatusIT {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @Test
    void commandsArePublishedByScope_andStatusShowsThemWithTheServersStates() throws Exception {
        TestingCli cli = new TestingCli();
        String b = KAFKA.bootstrapServers();
        assertThat(cli.run("topics", "create", "--bootstrap", b)).as(cli.err()).isZero();
        cli.clearOut();
        assertThat(cli.run("command", "--bootstrap", b, "--id", "d1", "drain", "--server", "s1")).as(cli.err()).isZero();
        JsonNode printed = new ObjectMapper().readTree(cli.out());
        assertThat(printed.get("key").asText()).isEqualTo("drain:s1");
        assertThat(printed.get("command").get("kind").asText()).isEqualTo("DRAIN_SERVER");
        assertThat(printed.get("command").get("commandId").asText()).isEqualTo("d1");
        assertThat(cli.run("command", "--bootstrap", b, "tenant", "--tenant", "acme", "--servers", "s0,s2",
                "--max-share", "0.4")).as(cli.err()).isZero();
        assertThat(cli.run("command", "--bootstrap", b, "freeze")).as(cli.err()).isZero();
        assertThat(cli.run("command", "--bootstrap", b, "unfreeze")).as(cli.err()).isZero();
        assertThat(cli.run("command", "--bootstrap", b, "rollback", "--table-version", "3")).as(cli.err()).isZero();
        int bad = cli.run("command", "--bootstrap", b, "tenant", "--tenant", "x", "--servers", "s3", "--max-share", "1.5");
        assertThat(bad).isNotZero();
        assertThat(cli.err()).contains("nona: field 'maxShare' (1.5) must be in (0, 1]");

        JsonSerde<ServerTelemetry> telemetry = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
        JsonSerde<ModelCatalogEntry> catalog = JsonSerde.forTopic(Topics.MODEL_CATALOG);
        CatalogDag dag = new CatalogDag("g", List.of(new CatalogTask("a", 1e9), new CatalogTask("b", 3e9)),
                List.of(new CatalogEdge("a", "b", 1e6)));
        try (RecordPublisher out = new RecordPublisher(ClientProperties.producer(b, 0))) {
            for (ModelCatalogEntry e : List.of(ModelCatalogEntry.of("resnet", dag, 4_000.0),
                    ModelCatalogEntry.of("vgg", dag, 1_000.0))) {
                out.send(Topics.MODEL_CATALOG.name(), catalog.keyBytes(e), catalog.serialize(e));
            }
            List<CachedModel> held = List.of(new CachedModel("resnet", 3_000), new CachedModel("vgg", 1_000));
            for (ServerTelemetry s : List.of(ServerTelemetry.of("s0", true, 1e9, 0, held, null, 1),
                    ServerTelemetry.of("s1", true, 1e9, 0, List.of(), null, 1),
                    ServerTelemetry.of("s2", false, 1e9, 0, List.of(), null, 1))) {
                out.send(Topics.CLUSTER_TELEMETRY.name(), telemetry.keyBytes(s), telemetry.serialize(s));
            }
            out.flush();
        }
        cli.clearOut();
        assertThat(cli.run("status", "--bootstrap", b, "--liveness-timeout", "600000")).as(cli.err()).isZero();
        JsonNode status = new ObjectMapper().readTree(cli.out());
        List<String> states = new ArrayList<>();
        status.get("servers").forEach(s -> states.add(s.get("id").asText() + "=" + s.get("state").asText()));
        assertThat(states).containsExactly("s0=up", "s1=drained", "s2=down");
        JsonNode s0 = status.get("servers").get(0);
        assertThat(s0.get("warmModels").toString()).as("the controller's rule: whole by the catalog's bytes")
                .isEqualTo("[\"vgg\"]");
        assertThat(s0.get("partlyHeldModels").toString()).as("3,000 of resnet's 4,000 bytes").isEqualTo("[\"resnet\"]");
        List<String> scopes = new ArrayList<>();
        status.get("activeCommands").forEach(c -> scopes.add(c.get("kind").asText()));
        assertThat(scopes).as("freeze then unfreeze: not in force; a rollback is done once, not kept")
                .containsExactly("DRAIN_SERVER", "TENANT_RULE");
        assertThat(status.get("table").isNull()).as("no controller ran: no table").isTrue();
        assertThat(status.get("events")).isEmpty();
    }
}
