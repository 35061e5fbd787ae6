package dev.nona.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.nona.cli.NonaCli;
import dev.nona.local.PrometheusReporterSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code docker-compose.yml} cannot run here (no Docker engine), so it is checked against the build instead:
 * image versions equal the Kafka and Flink versions on the classpath, published ports and in-network
 * addresses agree with the listeners, the mounted jars are the ones the build produces, and the one-shot
 * commands parse with the real command line. The packaged jars themselves (which exist only after {@code
 * package}) are checked by {@link DockerComposeJarsIT}, so that {@code mvn test} passes on a clean checkout.
 */
final class DockerComposeFileTest {

    private static Path root;
    private static JsonNode services;

    @BeforeAll
    static void parse() throws IOException {
        root = repoRoot();
        JsonNode compose = new ObjectMapper(new YAMLFactory()).readTree(root.resolve("docker-compose.yml").toFile());
        services = compose.path("services");
    }

    @Test
    void images_matchKafkaAndFlinkVersionsOfTheBuild() {
        String kafka = AppInfoParser.getVersion();
        String flink = EnvironmentInformation.getVersion();
        assertThat(service("kafka").path("image").asText()).isEqualTo("apache/kafka:" + kafka);
        for (String s : List.of("jobmanager", "taskmanager", "submit", "topics")) {
            assertThat(service(s).path("image").asText()).as(s + " image")
                    .isEqualTo("flink:" + flink + "-scala_2.12-java17");
        }
    }

    @Test
    void ports_publishKafkaAndFlinkRest_andInternalAddressesAgree() {
        assertThat(strings(service("kafka").path("ports"))).contains("9092:9092");
        assertThat(strings(service("jobmanager").path("ports"))).contains("8081:8081");

        Map<String, String> env = env(service("kafka"));
        String internal = env.get("KAFKA_ADVERTISED_LISTENERS").split(",")[0];
        assertThat(internal).isEqualTo("INTERNAL://kafka:19092");
        assertThat(env.get("KAFKA_LISTENERS")).contains("INTERNAL://:19092", "EXTERNAL://:9092");
        assertThat(env.get("KAFKA_PROCESS_ROLES")).isEqualTo("broker,controller");
        assertThat(env.get("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR")).isEqualTo("1");
        assertThat(Uuid.fromString(env.get("CLUSTER_ID"))).as("CLUSTER_ID is a Kafka cluster id").isNotNull();
        assertThat(env.get("KAFKA_CONTROLLER_QUORUM_VOTERS")).isEqualTo(env.get("KAFKA_NODE_ID") + "@kafka:9093");

        assertThat(argument(service("topics").path("command"), "--bootstrap")).isEqualTo("kafka:19092");
        assertThat(argument(service("submit").path("command"), "--bootstrap")).isEqualTo("kafka:19092");
        assertThat(argument(service("submit").path("command"), "-m")).isEqualTo("jobmanager:8081");
        assertThat(service("jobmanager").path("environment").path("FLINK_PROPERTIES").asText())
                .contains("rest.port: 8081").contains("jobmanager.rpc.address: jobmanager");
        assertThat(service("taskmanager").path("environment").path("FLINK_PROPERTIES").asText())
                .contains("jobmanager.rpc.address: jobmanager");
    }

    @Test
    void flinkProcesses_startWithTheImagesEntrypoint_andOwnTheCheckpointVolume() {
        for (String s : List.of("jobmanager", "taskmanager")) {
            String script = String.join(" ", strings(service(s).path("entrypoint")));
            assertThat(script).as(s + " entrypoint").contains("chown -R flink:flink /flink-data")
                    .endsWith("exec /docker-entrypoint.sh " + s);
            assertThat(strings(service(s).path("volumes"))).contains("flink-data:/flink-data");
            assertThat(service(s).path("environment").path("FLINK_PROPERTIES").asText())
                    .contains("execution.checkpointing.dir: file:///flink-data/checkpoints");
        }
    }

    @Test
    void submit_mountsTheJobJarTheBuildMakes_andNamesItsEntryClass() {
        String mount = strings(service("submit").path("volumes")).get(0);
        String[] parts = mount.split(":");
        Path hostJar = root.resolve(parts[0]).normalize();
        List<String> command = strings(service("submit").path("command"));

        assertThat(hostJar).isEqualTo(root.resolve("flink-jobs/target/flink-jobs-" + projectVersion() + "-job.jar"));
        assertThat(command).contains(parts[1]);
        assertThat(argument(service("submit").path("command"), "-c")).isEqualTo("dev.nona.controller.ControllerMain");
    }

    @Test
    void topics_commandParsesWithTheRealCli_andUsesTheCliBuild() {
        JsonNode topics = service("topics");
        List<String> entrypoint = strings(topics.path("entrypoint"));
        assertThat(entrypoint.get(entrypoint.size() - 1)).isEqualTo(NonaCli.class.getName());
        assertThat(entrypoint).anyMatch(a -> a.contains("/opt/nona/nona-cli-" + projectVersion() + ".jar"));
        assertThat(strings(topics.path("volumes")).get(0)).startsWith("./nona-cli/target:/opt/nona");

        List<String> args = strings(topics.path("command"));
        var parsed = NonaCli.commandLine().parseArgs(args.toArray(String[]::new));
        assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("topics");
        assertThat(parsed.subcommand().subcommand().commandSpec().name()).isEqualTo("create");
        assertThat(service("submit").path("depends_on").path("topics").path("condition").asText())
                .isEqualTo("service_completed_successfully");
    }

    @Test
    void monitoring_reporterOnJobAndTaskManager_prometheusScrapesBoth_grafanaProvisioned() throws Exception {
        Class.forName(PrometheusReporterSettings.FACTORY_CLASS); // the factory the compose file names exists
        for (String s : List.of("jobmanager", "taskmanager")) {
            assertThat(service(s).path("environment").path("FLINK_PROPERTIES").asText()).as(s + " FLINK_PROPERTIES")
                    .contains(PrometheusReporterSettings.FACTORY_CLASS_KEY + ": " + PrometheusReporterSettings.FACTORY_CLASS)
                    .contains(PrometheusReporterSettings.PORT_KEY + ": " + PrometheusReporterSettings.DEFAULT_PORT);
        }
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode prometheus = service("prometheus");
        assertThat(strings(prometheus.path("volumes")))
                .contains("./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro");
        JsonNode scrapes = yaml.readTree(root.resolve("deploy/prometheus/prometheus.yml").toFile()).path("scrape_configs");
        String jobs = scrapes.toString();
        assertThat(jobs).contains("jobmanager:" + PrometheusReporterSettings.DEFAULT_PORT)
                .contains("\"names\":[\"taskmanager\"]").contains("\"port\":" + PrometheusReporterSettings.DEFAULT_PORT);

        List<String> grafanaVolumes = strings(service("grafana").path("volumes"));
        assertThat(grafanaVolumes).contains("./deploy/grafana/provisioning:/etc/grafana/provisioning:ro",
                "./deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro");
        JsonNode datasource = yaml.readTree(root.resolve("deploy/grafana/provisioning/datasources/prometheus.yml").toFile())
                .path("datasources").get(0);
        assertThat(datasource.path("url").asText()).isEqualTo("http://prometheus:9090");
        assertThat(strings(prometheus.path("ports"))).contains("9090:9090");
        JsonNode provider = yaml.readTree(root.resolve("deploy/grafana/provisioning/dashboards/nona.yml").toFile())
                .path("providers").get(0);
        assertThat(provider.path("options").path("path").asText()).isEqualTo("/var/lib/grafana/dashboards");
        JsonNode dashboard = new ObjectMapper().readTree(root.resolve("deploy/grafana/dashboards/nona-controller.json").toFile());
        assertThat(dashboard.findValues("datasource")).as("every panel and query uses the provisioned datasource")
                .isNotEmpty().allSatisfy(d -> assertThat(d.path("uid").asText()).isEqualTo(datasource.path("uid").asText()));
    }

    private static JsonNode service(String name) {
        JsonNode s = services.path(name);
        assertThat(s.isMissingNode()).as("service " + name + " in docker-compose.yml").isFalse();
        return s;
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String argument(JsonNode command, String flag) {
        List<String> args = strings(command);
        int i = args.indexOf(flag);
        assertThat(i).as(flag + " in " + args).isGreaterThanOrEqualTo(0).isLessThan(args.size() - 1);
        return args.get(i + 1);
    }

    private static Map<String, String> env(JsonNode service) {
        Map<String, String> out = new LinkedHashMap<>();
        service.path("environment").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    static String projectVersion() {
        return System.getProperty("nona.project.version", "0.1.0-SNAPSHOT");
    }

    static Path repoRoot() {
        String configured = System.getProperty("nona.repo.root");
        Path dir = configured != null ? Path.of(configured) : Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docker-compose.yml"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("docker-compose.yml not found above " + Path.of("").toAbsolutePath());
        }
        return dir.toAbsolutePath().normalize();
    }
}
