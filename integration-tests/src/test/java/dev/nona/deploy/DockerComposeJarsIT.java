package dev.nona.deploy;

import static dev.nona.deploy.DockerComposeFileTest.strings;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The jars {@code docker-compose.yml} mounts, as the build packaged them (so this runs after {@code package},
 * under failsafe): the job jar holds the entry class and the Kafka connector but not Flink, and the command
 * line's jar is where the {@code topics} service looks for it.
 */
final class DockerComposeJarsIT {

    private static Path root;
    private static JsonNode services;

    @BeforeAll
    static void parse() throws Exception {
        root = DockerComposeFileTest.repoRoot();
        services = new ObjectMapper(new YAMLFactory()).readTree(root.resolve("docker-compose.yml").toFile()).path("services");
    }

    @Test
    void submit_mountsTheBuiltJobJar_whichHoldsTheEntryClass() throws Exception {
        Path hostJar = root.resolve(strings(services.path("submit").path("volumes")).get(0).split(":")[0]).normalize();
        List<String> command = strings(services.path("submit").path("command"));
        String entryClass = command.get(command.indexOf("-c") + 1);

        assertThat(hostJar).as("run mvn -B -DskipTests package first").isRegularFile();
        try (ZipFile jar = new ZipFile(hostJar.toFile())) {
            assertThat(jar.getEntry(entryClass.replace('.', '/') + ".class")).as(entryClass + " in " + hostJar).isNotNull();
            assertThat(jar.getEntry("org/apache/flink/connector/kafka/sink/KafkaSink.class")).isNotNull();
            assertThat(jar.getEntry("org/apache/flink/streaming/api/environment/StreamExecutionEnvironment.class"))
                    .as("Flink itself is provided by the cluster").isNull();
        }
        Method main = Class.forName(entryClass).getMethod("main", String[].class);
        assertThat(Modifier.isStatic(main.getModifiers())).isTrue();
    }

    @Test
    void topics_mountsTheBuiltCli() {
        String mount = strings(services.path("topics").path("volumes")).get(0);
        assertThat(root.resolve(mount.split(":")[0]).resolve("nona-cli-" + DockerComposeFileTest.projectVersion() + ".jar"))
                .isRegularFile();
        assertThat(root.resolve(mount.split(":")[0]).resolve("lib")).isDirectory();
    }
}
