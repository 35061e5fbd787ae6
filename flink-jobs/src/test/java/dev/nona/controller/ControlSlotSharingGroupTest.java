package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

/**
 * {@code control.slot-sharing-group}: the control loop (and the tables sink it alone feeds) in a slot sharing group
 * of its own, the request path in Flink's default one, and the embedded MiniCluster given the extra slot. Built from
 * the production wiring ({@link KafkaIo}); nothing connects to a broker.
 */
final class ControlSlotSharingGroupTest {
    /** Flink's default slot sharing group. */
    private static final String DEFAULT = "default";

    @Test
    void unset_everyOperatorInTheDefaultGroup_andNoSlotCountSet() {
        Map<String, String> groups = groups(Map.of("bootstrap.servers", "127.0.0.1:1"));
        assertThat(groups).isNotEmpty().allSatisfy((op, group) -> assertThat(group).as(op).isEqualTo(DEFAULT));
        Configuration conf = ControllerEnvironment.configuration(
                ControllerConfig.fromMap(Map.of("bootstrap.servers", "b")));
        assertThat(conf.getOptional(TaskManagerOptions.NUM_TASK_SLOTS)).isEmpty();
    }

    @Test
    void named_theControlLoopAndTheTablesSinkInIt_theRequestPathNot() {
        Map<String, String> groups = groups(Map.of("bootstrap.servers", "127.0.0.1:1",
                "control.slot-sharing-group", "control"));
        assertThat(groups).containsEntry("control loop", "control")
                .containsEntry("tables sink: Writer", "control");
        for (String requestPath : new String[] {"Source: requests", "parse requests", "placement", "decisions sink: Writer"}) {
            assertThat(groups).as(requestPath).containsEntry(requestPath, DEFAULT);
        }
    }

    @Test
    void named_theEmbeddedMiniClusterHasASlotMoreThanTheParallelism_unlessConfigured() {
        Configuration conf = ControllerEnvironment.configuration(ControllerConfig.fromMap(Map.of(
                "bootstrap.servers", "b", "control.slot-sharing-group", "control", "parallelism", "2")));
        assertThat(conf.get(TaskManagerOptions.NUM_TASK_SLOTS)).isEqualTo(3);
        Configuration given = ControllerEnvironment.configuration(ControllerConfig.fromMap(Map.of(
                "bootstrap.servers", "b", "control.slot-sharing-group", "control",
                "flink.taskmanager.numberOfTaskSlots", "8")));
        assertThat(given.get(TaskManagerOptions.NUM_TASK_SLOTS)).as("a flink.* entry wins").isEqualTo(8);
    }

    /** The slot sharing group of each operator, by name. */
    private static Map<String, String> groups(Map<String, String> settings) {
        Map<String, String> out = new TreeMap<>();
        for (StreamNode n : StreamGraphs.of(settings).getStreamNodes()) {
            out.put(n.getOperatorName(), n.getSlotSharingGroup());
        }
        return out;
    }
}
