package dev.nona.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class WorkloadReaderTest {
    private static final String CONTRACT = """
            {"cluster": {"servers": 80, "opsPerSecond": 1.0e13, "linkBitsPerSecond": 1.0e10},
             "models": [{"name": "resnet18", "dag": {"zoo": "resnet18"}, "ratePerSecond": 200},
                        {"name": "mine", "dag": {"file": "mine.json"}, "ratePerSecond": 5}],
             "background": {"comm": {"ratePerSecond": 950, "bytes": 1.0e7}, "compute": {"ratePerSecond": 10, "ops": 1.0e9}}}
            """;

    @Test
    void contract_exampleFromIssue_readsEveryField(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("w.json");
        Files.writeString(file, CONTRACT);

        Workload w = WorkloadReader.read(file);

        assertThat(w.cluster()).isEqualTo(new Cluster(80, 1.0e13, 1.0e10));
        assertThat(w.models()).extracting(ModelSpec::name).containsExactly("resnet18", "mine");
        assertThat(w.models().get(0).dag()).isEqualTo(new DagSource.Zoo("resnet18"));
        assertThat(w.models().get(1).dag()).isEqualTo(new DagSource.File(dir.toAbsolutePath().resolve("mine.json")));
        assertThat(w.models().get(0).ratePerSecond()).isEqualTo(200.0);
        assertThat(w.background().comm()).isEqualTo(new Background.Comm(950, 1.0e7));
        assertThat(w.background().compute()).isEqualTo(new Background.Compute(10, 1.0e9));
    }

    @Test
    void contract_yaml_readsSameAsJson(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("w.json");
        Files.writeString(json, CONTRACT);
        Path yaml = dir.resolve("w.yaml");
        Files.writeString(yaml, """
                cluster: {servers: 80, opsPerSecond: 1.0e13, linkBitsPerSecond: 1.0e10}
                models:
                  - {name: resnet18, dag: {zoo: resnet18}, ratePerSecond: 200}
                  - name: mine
                    dag: {file: mine.json}
                    ratePerSecond: 5
                background:
                  comm: {ratePerSecond: 950, bytes: 1.0e7}
                  compute: {ratePerSecond: 10, ops: 1.0e9}
                """);

        assertThat(WorkloadReader.read(yaml)).isEqualTo(WorkloadReader.read(json));
    }

    @Test
    void contract_backgroundOptional_isNone() {
        Workload w = WorkloadReader.parse("""
                {"cluster": {"servers": 2, "opsPerSecond": 1, "linkBitsPerSecond": 1},
                 "models": [{"name": "a", "dag": {"zoo": "alexnet"}, "ratePerSecond": 1}]}
                """, false, Path.of("/tmp"));

        assertThat(w.background()).isEqualTo(Background.NONE);
    }

    @Test
    void contract_backgroundOnly_noModelsIsValid() {
        Workload w = WorkloadReader.parse("""
                {"cluster": {"servers": 1, "opsPerSecond": 1, "linkBitsPerSecond": 1.0e10},
                 "models": [],
                 "background": {"comm": {"ratePerSecond": 100, "bytes": 1.0e7}}}
                """, false, null);

        assertThat(w.models()).isEmpty();
        assertThat(w.backgroundOnly()).isTrue();
        assertThat(w.background().comm()).isEqualTo(new Background.Comm(100, 1.0e7));
    }

    @Test
    void contract_noModelsAndNoBackgroundJobs_errorSaysWhatIsMissing() {
        for (String background : new String[] {"", ", \"background\": {\"comm\": {\"ratePerSecond\": 0, \"bytes\": 1}}"}) {
            assertThatThrownBy(() -> WorkloadReader.parse("""
                    {"cluster": {"servers": 1, "opsPerSecond": 1, "linkBitsPerSecond": 1}, "models": []%s}
                    """.formatted(background), false, null))
                    .isInstanceOf(WorkloadException.class)
                    .hasMessageContaining("models must list at least one model, or background must have jobs");
        }
    }

    @Test
    void contract_pipedreamWithOptions_resolvesPathAndKeepsOptions() {
        Workload w = WorkloadReader.parse("""
                {"cluster": {"servers": 2, "opsPerSecond": 1, "linkBitsPerSecond": 1},
                 "models": [{"name": "a", "dag": {"pipedream": "g/graph.txt", "batch": 64}, "ratePerSecond": 1}]}
                """, false, Path.of("/data/w"));

        DagSource.PipeDream p = (DagSource.PipeDream) w.models().get(0).dag();
        assertThat(p.path()).isEqualTo(Path.of("/data/w/g/graph.txt"));
        assertThat(p.options()).containsEntry("batch", 64.0);
    }

    @Test
    void contract_unknownField_errorNamesFieldPath() {
        assertThatThrownBy(() -> WorkloadReader.parse("""
                {"cluster": {"servers": 2, "opsPerSecond": 1, "linkBitsPerSecond": 1},
                 "models": [{"name": "a", "dag": {"zoo": "x"}, "ratePerSecond": 1, "rate": 3}]}
                """, false, null))
                .isInstanceOf(WorkloadException.class)
                .hasMessageContaining("models[0].rate'");
        assertThatThrownBy(() -> WorkloadReader.parse("""
                {"cluster": {"servers": 2, "opsPerSecond": 1, "linkBitsPerSecond": 1, "gpus": 1},
                 "models": [{"name": "a", "dag": {"zoo": "x"}, "ratePerSecond": 1}]}
                """, false, null))
                .hasMessageContaining("cluster.gpus");
        assertThatThrownBy(() -> WorkloadReader.parse("""
                {"cluster": {"servers": 2, "opsPerSecond": 1, "linkBitsPerSecond": 1},
                 "models": [{"name": "a", "dag": {"zoo": "x", "file": "y"}, "ratePerSecond": 1}]}
                """, false, null))
                .hasMessageContaining("models[0].dag.file");
    }

    @Test
    void contract_badValues_errorNamesFieldAndValue() {
        assertThatThrownBy(() -> WorkloadReader.parse("""
                {"cluster": {"servers": 2, "opsPerSecond": 1, "linkBitsPerSecond": -1},
                 "models": [{"name": "a", "dag": {"zoo": "x"}, "ratePerSecond": 1}]}
                """, false, null))
                .hasMessage("cluster.linkBitsPerSecond (-1.0) must be finite and > 0");
        assertThatThrownBy(() -> WorkloadReader.parse("""
                {"cluster": {"servers": 2.5, "opsPerSecond": 1, "linkBitsPerSecond": 1},
                 "models": [{"name": "a", "dag": {"zoo": "x"}, "ratePerSecond": 1}]}
                """, false, null))
                .hasMessageContaining("cluster.servers (2.5)");
        assertThatThrownBy(() -> WorkloadReader.parse("""
                {"cluster": {"servers": 2, "opsPerSecond": 1, "linkBitsPerSecond": 1},
                 "models": [{"name": "a", "dag": {"zoo": "x"}}]}
                """, false, null))
                .hasMessage("missing field 'models[0].ratePerSecond'");
        assertThatThrownBy(() -> WorkloadReader.parse("""
                {"cluster": {"servers": 2, "opsPerSecond": 1, "linkBitsPerSecond": 1},
                 "models": [{"name": "a", "dag": {"zoo": "x"}, "ratePerSecond": 1},
                            {"name": "a", "dag": {"zoo": "y"}, "ratePerSecond": 1}]}
                """, false, null))
                .hasMessageContaining("duplicate name 'a'");
        assertThatThrownBy(() -> WorkloadReader.parse("{\"cluster\": ", false, null))
                .isInstanceOf(WorkloadException.class).hasMessageContaining("not valid JSON");
    }
}
