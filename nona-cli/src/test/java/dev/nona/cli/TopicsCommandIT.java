package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.topics.Topics;
import dev.nona.topics.testing.InProcessKafka;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code nona topics create} against a real in-process KRaft broker. */
final class TopicsCommandIT {

    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @Test
    void create_twice_createsThenFindsEveryTopic(@TempDir Path dir) throws Exception {
        Path clientConfig = Files.writeString(dir.resolve("client.properties"),
                "security.protocol=PLAINTEXT\nbootstrap.servers=" + KAFKA.bootstrapServers() + "\n");

        Run first = run("topics", "create", "--config", clientConfig.toString());
        Run second = run("topics", "create", "--bootstrap", KAFKA.bootstrapServers());

        assertThat(first.exit).as(first.err).isZero();
        assertThat(second.exit).as(second.err).isZero();
        assertThat(statuses(first.out)).containsOnly("created").hasSize(9).hasSize(Topics.all().size());
        JsonNode topics = new ObjectMapper().readTree(second.out).get("topics");
        assertThat(statuses(second.out)).containsOnly("exists").hasSize(Topics.all().size());
        assertThat(topics.get(2).get("name").asText()).isEqualTo("model-catalog");
        assertThat(topics.get(2).get("configs").get("cleanup.policy").asText()).isEqualTo("compact");
        assertThat(topics.get(4).get("name").asText()).isEqualTo("placement-outcomes");
        assertThat(topics.get(4).get("configs").get("cleanup.policy").asText()).isEqualTo("delete");
        assertThat(topics.get(5).get("name").asText()).isEqualTo("placement-tables");
        assertThat(topics.get(5).get("configs").get("cleanup.policy").asText()).isEqualTo("compact");
        assertThat(topics.findValues("mismatches")).allSatisfy(m -> assertThat(m).isEmpty());
    }

    @Test
    void create_badPartitions_failsWithOneLineNamingTheValue() {
        Run run = run("topics", "create", "--bootstrap", KAFKA.bootstrapServers(), "--partitions", "0");

        assertThat(run.exit).isNotZero();
        assertThat(run.out).isEmpty();
        assertThat(run.err.strip()).isEqualTo("nona: --partitions (0) must be >= 1");
    }

    @Test
    void create_noBootstrap_failsNamingTheMissingSetting() {
        Run run = run("topics", "create");

        assertThat(run.exit).isNotZero();
        assertThat(run.err).contains("bootstrap servers missing");
    }

    private static List<String> statuses(String json) throws Exception {
        List<String> statuses = new ArrayList<>();
        new ObjectMapper().readTree(json).get("topics").forEach(t -> statuses.add(t.get("status").asText()));
        return statuses;
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = NonaCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private record Run(int exit, String out, String err) {
    }
}
