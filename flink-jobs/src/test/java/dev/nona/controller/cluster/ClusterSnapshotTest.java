package dev.nona.controller.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.workload.ServerClass;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ClusterSnapshotTest {
    private static ServerTelemetry server(String id, double ops, String serverClass, Double memory) {
        return ServerTelemetry.of(id, true, ops, 0, List.of(), TestingCluster.LINK_BITS_PER_SECOND, 1).withClass(serverClass, memory);
    }

    @Test
    void classes_groupTheUpServersByTheirReportedClass_meanSpeedSmallestMemory() {
        ClusterSnapshot snap = ClusterSnapshot.of(List.of(server("a", 4e12, "big", 8e10), server("b", 2e12, "big", 6e10),
                server("c", 1e12, "small", 1e10), server("d", 1e12, null, null),
                TestingCluster.down("e", 1).withClass("big", 1.0)), 1e10);
        assertThat(snap.classes()).containsExactly(new ServerClass("big", 2, 3e12, 6e10),
                new ServerClass("default", 1, 1e12, ServerClass.UNBOUNDED), new ServerClass("small", 1, 1e12, 1e10));
        assertThat(snap.cluster().servers()).isEqualTo(4);
        assertThat(snap.cluster().memoryBounded()).isTrue();
        assertThat(snap.changeFrom(new ClusterSnapshot(snap.upServers(), snap.opsPerSecond(), snap.linkBitsPerSecond()),
                0.1)).contains("server classes [] -> [big x2, default x1, small x1]");
    }

    @Test
    void withoutClassOrMemory_theSnapshotIsThePapersCluster() {
        ClusterSnapshot snap = ClusterSnapshot.of(List.of(TestingCluster.server("a", 1), TestingCluster.server("b", 1)), 1e10);
        assertThat(snap.classes()).isEmpty();
        assertThat(snap.cluster().classes()).hasSize(1);
        assertThat(snap.cluster().servers()).isEqualTo(2);
        assertThat(snap.cluster().memoryBounded()).isFalse();
    }
}
