package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ServerTelemetry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class BootstrapSnapshotTest {
    private static ControllerTable table(long version) {
        return new ControllerTable(version, true, 0, "test", Map.of(), new ClusterSnapshot(List.of("s0"), 1e12, 1e10),
                Double.NaN, Double.NaN, Map.of(), null);
    }

    @Test
    void encodeDecode_splitsTheSnapshotByKind_newestTableServersInOrder() {
        List<BroadcastUpdate> updates = List.of(BroadcastUpdate.of(table(3)),
                BroadcastUpdate.of(TestingCluster.server("b1", 1_000, "fig1")),
                BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())),
                BroadcastUpdate.of(table(5)), BroadcastUpdate.of(table(4)),
                BroadcastUpdate.of(TestingCluster.server("b0", 2_000)));
        BootstrapSnapshot b = BootstrapSnapshot.decode(BootstrapSnapshot.encode(updates));
        assertThat(b.table()).isEqualTo(table(5));
        assertThat(b.servers()).extracting(ServerTelemetry::serverId).containsExactly("b1", "b0");
        assertThat(b.models()).containsOnlyKeys("fig1").containsEntry("fig1", TestingCluster.figure1());
        assertThat(BootstrapSnapshot.decode(BootstrapSnapshot.encode(List.of()))).isEqualTo(new BootstrapSnapshot(null, List.of(), Map.of(), ActiveCommands.NONE));
    }

    @Test
    void newer_theSnapshotsTable_onlyWhileTheStateHoldsNone() {
        BootstrapSnapshot b = BootstrapSnapshot.of(List.of(BroadcastUpdate.of(table(5))));
        assertThat(b.newer(null)).isEqualTo(table(5));
        ControllerTable fresh = table(1);
        assertThat(b.newer(fresh)).as("the job's own first table, even of a lower version").isSameAs(fresh);
        ControllerTable stored = table(6);
        assertThat(b.newer(stored)).isSameAs(stored);
        assertThat(BootstrapSnapshot.of(List.of()).newer(null)).isNull();
    }

    @Test
    void commands_theSnapshotsNewest_onlyWhileTheStateHoldsNone() {
        ActiveCommands drained = ActiveCommands.NONE.with(ControllerCommand.drain("d1", 1, "s3", true));
        ActiveCommands both = drained.with(ControllerCommand.drain("d2", 1, "s4", true));
        BootstrapSnapshot b = BootstrapSnapshot.decode(BootstrapSnapshot.encode(List.of(BroadcastUpdate.of(both),
                BroadcastUpdate.of(drained), BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())))));
        assertThat(b.commands()).isEqualTo(both);
        assertThat(b.commands(null).drained()).containsExactlyInAnyOrder("s3", "s4");
        ActiveCommands jobs = both.with(ControllerCommand.drain("u3", 2, "s3", false));
        assertThat(b.commands(jobs)).as("the command operator's next change replaces them").isSameAs(jobs);
        ActiveCommands restored = ActiveCommands.NONE.with(ControllerCommand.freeze("f", 1, true));
        assertThat(b.commands(restored)).as("a restore's, whatever their sequence").isSameAs(restored);
        assertThat(BootstrapSnapshot.of(List.of()).commands(null)).isEqualTo(ActiveCommands.NONE);
    }

    @Test
    void latestReports_givesWayPerServer_toTheStatesSameOrNewerReports() {
        BootstrapSnapshot b = BootstrapSnapshot.of(List.of(BroadcastUpdate.of(TestingCluster.server("b0", 1_000)),
                BroadcastUpdate.of(TestingCluster.server("b1", 1_000)),
                BroadcastUpdate.of(TestingCluster.server("b2", 1_000))));
        Map<String, ServerTelemetry> state = new LinkedHashMap<>();
        state.put("s9", TestingCluster.server("s9", 10));
        state.put("b1", TestingCluster.down("b1", 2_000)); // newer: replaces the snapshot's
        state.put("b0", TestingCluster.down("b0", 500)); // older: the snapshot's stays
        state.put("b2", TestingCluster.down("b2", 1_000)); // as new: the state's
        List<ServerTelemetry> latest = b.latestReports(state.entrySet());
        assertThat(latest).extracting(ServerTelemetry::serverId).containsExactly("b0", "b1", "b2", "s9");
        assertThat(latest).extracting(ServerTelemetry::up).containsExactly(true, false, false, true);
    }
}
