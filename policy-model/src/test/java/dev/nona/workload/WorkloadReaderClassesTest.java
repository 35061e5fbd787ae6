package dev.nona.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The heterogeneous cluster's fields of a workload file: server classes, cold start, a model's size; bad input. */
final class WorkloadReaderClassesTest {
    private static final String MODELS = """
            "models": [{"name": "a", "dag": {"zoo": "alexnet"}, "ratePerSecond": 1, "sizeBytes": 2.4e8}]""";

    private static Workload parse(String cluster) {
        return WorkloadReader.parse("{\"cluster\": " + cluster + ", " + MODELS + "}", false, Path.of("/tmp"));
    }

    private static Workload parseYaml(String text) {
        return WorkloadReader.parse(text, true, Path.of("/tmp"));
    }

    @Test
    void contract_serverClasses_readsClassesColdStartAndSize() {
        Workload w = parse("""
                {"serverClasses": [{"name": "a100", "count": 2, "opsPerSecond": 4.0e13, "memoryBytes": 8.0e10},
                                   {"name": "t4", "count": 6, "opsPerSecond": 8.0e12, "memoryBytes": 1.6e10}],
                 "linkBitsPerSecond": 1.0e10, "coldStart": {"fixedSeconds": 0.5, "loadBytesPerSecond": 2.0e9}}""");

        Cluster c = w.cluster();
        assertThat(c.classes()).containsExactly(new ServerClass("a100", 2, 4.0e13, 8.0e10),
                new ServerClass("t4", 6, 8.0e12, 1.6e10));
        assertThat(c.servers()).isEqualTo(8);
        assertThat(c.opsPerSecond()).isCloseTo((2 * 4.0e13 + 6 * 8.0e12) / 8, org.assertj.core.data.Offset.offset(1.0));
        assertThat(c.coldStart()).isEqualTo(new ColdStartCost(0.5, 2.0e9));
        assertThat(c.memoryBounded()).isTrue();
        assertThat(w.models().get(0).sizeBytes()).isEqualTo(2.4e8);
    }

    @Test
    void contract_classWithoutMemory_isUnbounded() {
        Workload w = parse("""
                {"serverClasses": [{"name": "x", "count": 3, "opsPerSecond": 1.0e12}], "linkBitsPerSecond": 1.0e10}""");

        assertThat(w.cluster().classes()).containsExactly(new ServerClass("x", 3, 1.0e12, ServerClass.UNBOUNDED));
        assertThat(w.cluster().memoryBounded()).isFalse();
        assertThat(w.cluster().coldStart()).isNull();
    }

    @Test
    void contract_uniformCluster_keepsOneDefaultClassAndTakesAColdStart() {
        Workload w = parse("""
                {"servers": 4, "opsPerSecond": 1.0e12, "linkBitsPerSecond": 1.0e10,
                 "coldStart": {"fixedSeconds": 0, "loadBytesPerSecond": 1.0e9}}""");

        assertThat(w.cluster().classes()).containsExactly(new ServerClass("default", 4, 1.0e12, ServerClass.UNBOUNDED));
        assertThat(w.cluster().coldStart()).isEqualTo(new ColdStartCost(0, 1.0e9));
        assertThat(w.cluster().coldStart().weight()).isEqualTo(ColdStartCost.DEFAULT_WEIGHT);
    }

    @Test
    void contract_coldStartWeight_isReadWhenGiven() {
        Workload w = parse("""
                {"servers": 4, "opsPerSecond": 1.0e12, "linkBitsPerSecond": 1.0e10,
                 "coldStart": {"fixedSeconds": 0.2, "loadBytesPerSecond": 1.0e9, "weight": 10}}""");

        assertThat(w.cluster().coldStart()).isEqualTo(new ColdStartCost(0.2, 1.0e9, 10));
        assertThat(w.cluster().coldStart().seconds(1e9)).isCloseTo(1.2, within(1e-12));
        assertThat(w.cluster().coldStart().pricedSeconds(1e9)).isCloseTo(12.0, within(1e-12));
        assertThat(w.cluster().coldStart().rentHalfLifeSeconds()).isEqualTo(ColdStartCost.DEFAULT_RENT_HALF_LIFE_SECONDS);
    }

    @Test
    void contract_coldStartRentHalfLife_isReadWhenGiven() {
        Workload w = parse("""
                {"servers": 4, "opsPerSecond": 1.0e12, "linkBitsPerSecond": 1.0e10,
                 "coldStart": {"fixedSeconds": 0.2, "loadBytesPerSecond": 1.0e9, "rentHalfLifeSeconds": 2.5}}""");

        assertThat(w.cluster().coldStart()).isEqualTo(new ColdStartCost(0.2, 1.0e9, 1, 2.5));
        assertThat(w.cluster().coldStart().rentLeft(5)).isCloseTo(0.25, within(1e-12));
        for (String bad : List.of("0", "-1", "\"5 s\"")) {
            assertThatThrownBy(() -> parse("""
                    {"servers": 4, "opsPerSecond": 1.0e12, "linkBitsPerSecond": 1.0e10,
                     "coldStart": {"fixedSeconds": 0.2, "loadBytesPerSecond": 1.0e9, "rentHalfLifeSeconds": %s}}"""
                    .formatted(bad))).isInstanceOf(WorkloadException.class)
                    .hasMessageContaining("cluster.coldStart.rentHalfLifeSeconds");
        }
    }

    @Test
    void badInput_bothForms_namesTheFields() {
        assertThatThrownBy(() -> parse("""
                {"servers": 4, "serverClasses": [{"name": "x", "count": 3, "opsPerSecond": 1.0e12}],
                 "linkBitsPerSecond": 1.0e10}"""))
                .isInstanceOf(WorkloadException.class)
                .hasMessageContaining("cluster.serverClasses").hasMessageContaining("cluster.servers");
        assertThatThrownBy(() -> parse("""
                {"opsPerSecond": 1.0e12, "serverClasses": [{"name": "x", "count": 3, "opsPerSecond": 1.0e12}],
                 "linkBitsPerSecond": 1.0e10}"""))
                .hasMessageContaining("cluster.serverClasses").hasMessageContaining("cluster.opsPerSecond");
    }

    @Test
    void badInput_classFields_nameFieldAndValue() {
        String head = "{\"serverClasses\": [";
        String tail = "], \"linkBitsPerSecond\": 1.0e10}";
        record Case(String cls, String message) {
        }
        for (Case c : List.of(
                new Case("{\"name\": \"x\", \"count\": 0, \"opsPerSecond\": 1}", "cluster.serverClasses[0].count (0) must be >= 1"),
                new Case("{\"name\": \"x\", \"count\": 1.5, \"opsPerSecond\": 1}", "cluster.serverClasses[0].count (1.5) must be a whole number"),
                new Case("{\"name\": \"x\", \"count\": 1000000000000, \"opsPerSecond\": 1}",
                        "cluster.serverClasses[0].count (1000000000000) must be at most 2147483647"),
                new Case("{\"name\": \"x\", \"count\": 1, \"opsPerSecond\": -2}", "cluster.serverClasses[0].opsPerSecond (-2) must be finite and > 0"),
                new Case("{\"name\": \"x\", \"count\": 1, \"opsPerSecond\": 1, \"memoryBytes\": -1}",
                        "cluster.serverClasses[0].memoryBytes (-1) must be finite and > 0"),
                new Case("{\"name\": \"x\", \"count\": 1, \"opsPerSecond\": 1, \"memoryBytes\": 0}",
                        "cluster.serverClasses[0].memoryBytes (0) must be finite and > 0"),
                new Case("{\"name\": \"x\", \"count\": 1, \"opsPerSecond\": 1, \"gpus\": 2}", "unknown field 'cluster.serverClasses[0].gpus'"),
                new Case("{\"count\": 1, \"opsPerSecond\": 1}", "missing field 'cluster.serverClasses[0].name'"),
                new Case("{\"name\": \"x\", \"count\": 1, \"opsPerSecond\": 1}, {\"name\": \"x\", \"count\": 1, \"opsPerSecond\": 1}",
                        "duplicate name 'x'"))) {
            assertThatThrownBy(() -> parse(head + c.cls() + tail)).as(c.cls())
                    .isInstanceOf(WorkloadException.class).hasMessageContaining(c.message());
        }
        assertThatThrownBy(() -> parse("{\"serverClasses\": [], \"linkBitsPerSecond\": 1}"))
                .hasMessageContaining("cluster.serverClasses ([]) must be a non-empty list");
    }

    @Test
    void badInput_overflowingNumbers_areInfiniteAndRejected() {
        assertThatThrownBy(() -> parseYaml("""
                cluster:
                  serverClasses: [{name: x, count: 1, opsPerSecond: 1.0e400}]
                  linkBitsPerSecond: 1.0e10
                models: [{name: a, dag: {zoo: alexnet}, ratePerSecond: 1}]
                """)).hasMessageContaining("cluster.serverClasses[0].opsPerSecond").hasMessageContaining("must be finite");
        assertThatThrownBy(() -> parseYaml("""
                cluster: {servers: 1, opsPerSecond: 1, linkBitsPerSecond: 1}
                models: [{name: a, dag: {zoo: alexnet}, ratePerSecond: 1, sizeBytes: 1.0e400}]
                """)).hasMessageContaining("models[0].sizeBytes").hasMessageContaining("must be finite");
    }

    @Test
    void badInput_coldStart_needsBothFields() {
        assertThatThrownBy(() -> parse("""
                {"servers": 1, "opsPerSecond": 1, "linkBitsPerSecond": 1, "coldStart": {"fixedSeconds": 1}}"""))
                .hasMessageContaining("missing field 'cluster.coldStart.loadBytesPerSecond'");
        assertThatThrownBy(() -> parse("""
                {"servers": 1, "opsPerSecond": 1, "linkBitsPerSecond": 1, "coldStart": {"loadBytesPerSecond": 1}}"""))
                .hasMessageContaining("missing field 'cluster.coldStart.fixedSeconds'");
        assertThatThrownBy(() -> parse("""
                {"servers": 1, "opsPerSecond": 1, "linkBitsPerSecond": 1,
                 "coldStart": {"fixedSeconds": -1, "loadBytesPerSecond": 1}}"""))
                .hasMessageContaining("cluster.coldStart.fixedSeconds (-1) must be finite and >= 0");
        assertThatThrownBy(() -> parse("""
                {"servers": 1, "opsPerSecond": 1, "linkBitsPerSecond": 1,
                 "coldStart": {"fixedSeconds": 1, "loadBytesPerSecond": 0}}"""))
                .hasMessageContaining("cluster.coldStart.loadBytesPerSecond (0) must be finite and > 0");
        assertThatThrownBy(() -> parse("""
                {"servers": 1, "opsPerSecond": 1, "linkBitsPerSecond": 1,
                 "coldStart": {"fixedSeconds": 1, "loadBytesPerSecond": 1, "weight": 0}}"""))
                .hasMessageContaining("cluster.coldStart.weight (0) must be finite and > 0");
        assertThatThrownBy(() -> parse("""
                {"servers": 1, "opsPerSecond": 1, "linkBitsPerSecond": 1,
                 "coldStart": {"fixedSeconds": 1, "loadBytesPerSecond": 1, "weight": "heavy"}}"""))
                .hasMessageContaining("cluster.coldStart.weight").hasMessageContaining("heavy");
    }

    @Test
    void badInput_negativeModelSize_namesFieldAndValue() {
        assertThatThrownBy(() -> WorkloadReader.parse("""
                {"cluster": {"servers": 1, "opsPerSecond": 1, "linkBitsPerSecond": 1},
                 "models": [{"name": "a", "dag": {"zoo": "alexnet"}, "ratePerSecond": 1, "sizeBytes": -5}]}""",
                false, Path.of("/tmp"))).hasMessageContaining("models[0].sizeBytes (-5) must be finite and >= 0");
    }
}
