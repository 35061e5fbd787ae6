package dev.nona.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FlinkClusterConfigTest {

    @Test
    void write_flatYamlThatFlinkReadsBack_withOverridesWinning(@TempDir Path work) throws Exception {
        FlinkClusterConfig config = new FlinkClusterConfig(work, 6123, 8081, 2, "1024m", "768m",
                Map.of("restart-strategy.fixed-delay.delay", "2 s", "taskmanager.numberOfTaskSlots", "3"));
        config.write();
        String yaml = Files.readString(work.resolve("conf/config.yaml"));
        assertThat(yaml).contains("rest.port: 8081\n").contains("restart-strategy.fixed-delay.delay: '2 s'\n");
        var loaded = GlobalConfiguration.loadConfiguration(work.resolve("conf").toString());
        assertThat(loaded.get(RestOptions.PORT)).isEqualTo(8081);
        assertThat(loaded.get(TaskManagerOptions.NUM_TASK_SLOTS)).isEqualTo(3);
        assertThat(Files.exists(work.resolve("conf/log4j2.xml"))).isTrue();
    }

    @Test
    void processOptions_taskManagerGetsDerivedMemoryAsJvmFlagsAndDynamicProperties(@TempDir Path work) {
        FlinkClusterConfig config = new FlinkClusterConfig(work, 6123, 8081, 2, "1024m", "768m", Map.of());
        var tm = FlinkProcessOptions.taskManager(config.asConfiguration(), config.confDir(), work.resolve("tm.log"));
        assertThat(tm.jvm()).anyMatch(f -> f.startsWith("-Xmx")).anyMatch(f -> f.startsWith("-XX:MaxDirectMemorySize="))
                .contains("--add-opens=java.base/java.util=ALL-UNNAMED");
        assertThat(tm.args()).contains("--configDir").anyMatch(a -> a.startsWith("taskmanager.memory.network.min="));
        var jm = FlinkProcessOptions.jobManager(config.asConfiguration(), config.confDir(), work.resolve("jm.log"));
        assertThat(jm.jvm()).anyMatch(f -> f.startsWith("-Xmx"));
        assertThat(jm.args()).containsSequence("--executionMode", "cluster");
    }
}
