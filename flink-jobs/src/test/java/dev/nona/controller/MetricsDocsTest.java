package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.metrics.ControllerMetric;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** docs/operations.md's metrics table names every {@link ControllerMetric} by its Prometheus name. */
final class MetricsDocsTest {
    private static final Path REPO = Path.of(System.getProperty("basedir", "")).toAbsolutePath().getParent();

    @Test
    void controllerDocs_listEveryMetric() throws Exception {
        String docs = Files.readString(REPO.resolve("docs/operations.md"));
        assertThat(Arrays.stream(ControllerMetric.values()).map(ControllerMetric::prometheusName)
                .filter(n -> !docs.contains("`" + n.substring(ControllerMetric.OPERATOR_PREFIX.length()) + "`")))
                .as("metrics missing from docs/operations.md (written without the common prefix)").isEmpty();
    }
}
