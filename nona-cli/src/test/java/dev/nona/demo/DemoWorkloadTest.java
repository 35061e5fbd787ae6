package dev.nona.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import dev.nona.workload.Workload;
import dev.nona.workload.WorkloadReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class DemoWorkloadTest {
    private static final Path MEMORY_BOUND = Path.of("..", "examples", "memory-bound.json");

    @Test
    void of_memoryBound_twinGetsTheClassesAndColdStart_catalogTheSizes_controllerTheColdStart() {
        DemoWorkload w = DemoWorkload.of(WorkloadReader.read(MEMORY_BOUND), Duration.ofSeconds(10), Map.of(), Map.of());

        assertThat(w.twin().classes()).containsExactly(new ServerClass("large", 36, 1e11, 1.6e10),
                new ServerClass("small", 44, 1e11, 536870912));
        assertThat(w.twin().coldStart()).isEqualTo(new ColdStartCost(0.2, 2e9));
        assertThat(w.twin().partCaches()).isTrue();
        assertThat(w.twin().cacheSlots()).isZero();
        assertThat(w.scenario().servers()).isEqualTo(80);
        assertThat(w.scenario().models()).containsExactly("alexnet", "densenet121", "gpt2", "resnet18", "vgg16");
        assertThat(w.scenario().rate("vgg16", Duration.ZERO)).isEqualTo(20.0);
        assertThat(w.scenario().rate("vgg16", Duration.ofSeconds(9))).isEqualTo(20.0);
        assertThat(w.catalog().get("vgg16").sizeBytes()).isEqualTo(553430176.0);
        assertThat(w.catalog().get("vgg16").dag().tasks()).isNotEmpty();
        assertThat(w.controllerSettings()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "placement.cold-start.fixed-seconds", "0.2", "placement.cold-start.load-bytes-per-second", "2.0E9",
                "placement.cold-start.weight", "1.0", "placement.cold-start.rent-half-life", "5000000000 ns"));
    }

    @Test
    void of_plainCluster_noCachesNoClassesInTelemetry() {
        Workload plain = WorkloadReader.parse("{\"cluster\": {\"servers\": 3, \"opsPerSecond\": 1e12, "
                + "\"linkBitsPerSecond\": 1e10}, \"models\": [{\"name\": \"a\", \"dag\": {\"zoo\": \"alexnet\"}, "
                + "\"ratePerSecond\": 5}]}", false, Path.of("."));

        DemoWorkload w = DemoWorkload.of(plain, Duration.ofSeconds(10), Map.of(), Map.of());

        assertThat(w.twin().partCaches()).isFalse();
        assertThat(w.twin().cacheSlots()).isZero();
        assertThat(w.twin().servers()).isEqualTo(3);
        assertThat(w.catalog().get("a").sizeBytes()).isNull();
        assertThat(w.controllerSettings()).isEmpty();
    }

    @Test
    void of_backgroundOnlyWorkload_isAnError() {
        Workload background = WorkloadReader.parse("{\"cluster\": {\"servers\": 3, \"opsPerSecond\": 1e12, "
                + "\"linkBitsPerSecond\": 1e10}, \"models\": [], \"background\": {\"compute\": {\"ratePerSecond\": 1, "
                + "\"ops\": 1e9}}}", false, Path.of("."));

        assertThatThrownBy(() -> DemoWorkload.of(background, Duration.ofSeconds(10), Map.of(), Map.of()))
                .hasMessageContaining("--workload");
    }

    @Test
    void of_moreServersThanTheTwinRuns_isAnErrorNamingTheWorkloadsField() {
        Workload huge = WorkloadReader.parse("{\"cluster\": {\"servers\": 2000000000, \"opsPerSecond\": 1e12, "
                + "\"linkBitsPerSecond\": 1e10}, \"models\": [{\"name\": \"a\", \"dag\": {\"zoo\": \"alexnet\"}, "
                + "\"ratePerSecond\": 5}]}", false, Path.of("."));

        assertThatThrownBy(() -> DemoWorkload.of(huge, Duration.ofSeconds(10), Map.of(), Map.of()))
                .hasMessageStartingWith("--workload: cluster.servers (2000000000) must be at most 100000 for the demo");
    }

    @Test
    void twinOptions_classesOfTheWorkload_silenceBeyondThemIsAnError() {
        assertThatThrownBy(() -> DemoWorkload.of(WorkloadReader.read(MEMORY_BOUND), Duration.ofSeconds(10), Map.of(),
                Map.of("s-80", 5.0))).hasMessage("--silence-server: server 's-80' is not one of s-0 .. s-79");
    }
}
