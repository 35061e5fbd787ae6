package dev.nona.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.local.JvmClasspath;
import dev.nona.local.LocalFlinkCluster;
import dev.nona.topics.record.ControllerEventType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;

/**
 * The controller job on a {@link LocalFlinkCluster}, as the cluster ITs run it: the Flink processes' classpath
 * (Flink alone), the submission of the job jar with a test's topics, and the inputs that make it place requests.
 */
final class ControllerOnCluster {

    static final String ENTRY = "dev.nona.controller.ControllerMain";

    private ControllerOnCluster() {}

    /**
     * The classpath of the Flink processes: Flink's own artifacts and logging alone (the build writes it from the
     * pom's "provided" dependencies), never this test's classpath, so the job runs on what its jar holds.
     */
    static JvmClasspath flinkOnlyClasspath() {
        String file = System.getProperty("nona.flink.classpath.file");
        assertThat(file).as("system property nona.flink.classpath.file (set by the pom)").isNotNull();
        JvmClasspath cp;
        try {
            cp = JvmClasspath.parse(Files.readString(Path.of(file), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Flink classpath " + file, e);
        }
        assertThat(cp.entries()).as("Flink's classpath holds Flink").anyMatch(p -> p.getFileName().toString().startsWith("flink-runtime-"));
        assertThat(cp.entries()).as("none of our classes nor the job jar's libraries on Flink's classpath")
                .noneMatch(p -> Files.isDirectory(p) || p.toString().contains("/dev/nona/"))
                .noneMatch(p -> p.getFileName().toString().matches(
                        "(flink-jobs|policy-model|kafka-topics|simulator|nona-cli|flink-connector-kafka|kafka-clients|kafka_2\\.13"
                                + "|jackson-databind|jgrapht-core|picocli)-.*"));
        return cp;
    }

    /**
     * Submits the controller's job jar with parallelism 2, checkpoints every second and the servers' one report
     * kept live for 10 minutes, reading {@code topics} from the earliest offsets ({@code extra} settings win);
     * waits until it runs.
     */
    static JobID submit(LocalFlinkCluster flink, String bootstrap, ControllerTopics topics, Path dir,
            Map<String, String> extra) throws IOException {
        Map<String, String> settings = new LinkedHashMap<>(topics.settings());
        settings.put("bootstrap.servers", bootstrap);
        settings.put("checkpoint.interval", "1s");
        settings.put("parallelism", "2");
        settings.put("source.start-from-earliest", "true");
        settings.put("rates.window", "2s");
        settings.put("watermark.idleness", "2s");
        settings.put("cluster.liveness-timeout", "10m"); // the servers report once, at the start
        settings.putAll(extra);
        StringBuilder text = new StringBuilder();
        settings.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Path file = Files.writeString(dir.resolve(topics.prefix() + ".properties"), text, StandardCharsets.UTF_8);
        JobID job = flink.submit(JobJar.path(), ENTRY, 2, "--config", file.toString());
        flink.awaitRunning(job, Duration.ofSeconds(90));
        return job;
    }

    /** Catalog (two small fork-join models) and four servers; waits until the controller has taken them in. */
    static void prepare(ControllerInputs in, ControllerOutputs out, double linkBitsPerSecond) {
        in.catalog("fj-a", ControllerInputs.forkJoin("fj-a", 1.0e8));
        in.catalog("fj-b", ControllerInputs.forkJoin("fj-b", 1.0e5));
        in.servers(4, linkBitsPerSecond, List.of("fj-a", "fj-b"));
        boolean ready = out.pollUntil(() -> out.events(ControllerEventType.CATALOG_UPDATED) >= 2
                && out.events(ControllerEventType.CLUSTER_CHANGED) >= 1, Duration.ofSeconds(90));
        assertThat(ready).as("controller reported the catalog and the cluster").isTrue();
        // The placement operator learns the catalog and the servers on its broadcast input, which may lag behind
        // the control loop's events: warm-up requests (not counted) until one per model is decided.
        int[] k = {0};
        KafkaTestClients.awaitReading(Duration.ofSeconds(90)).untilAsserted(() -> {
            for (String model : List.of("fj-a", "fj-b")) {
                in.request(ControllerOutputs.WARMUP + model + "-" + k[0]++, model, System.currentTimeMillis());
            }
            in.flush();
            out.pollUntil(() -> out.warmedUpModels.containsAll(List.of("fj-a", "fj-b")), Duration.ofSeconds(2));
            assertThat(out.warmedUpModels).as("models with a decided warm-up request").contains("fj-a", "fj-b");
        });
    }
}
