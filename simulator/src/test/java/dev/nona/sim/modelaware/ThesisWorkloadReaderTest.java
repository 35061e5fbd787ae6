package dev.nona.sim.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class ThesisWorkloadReaderTest {
    private static final String MINIMAL = """
            {"cluster": {"servers": 2},
             "models": [{"name": "m", "sizeMb": 10, "coldStartSeconds": 3, "inferenceSeconds": 1}],
             "requests": [{"model": "m"}]}""";

    @Test
    void parse_minimal_appliesDefaults() {
        ThesisWorkload w = ThesisWorkloadReader.parse(MINIMAL);

        assertThat(w.cluster()).isEqualTo(new ThesisCluster(2, 1, 192_000, 0, 3));
        assertThat(w.models().get(0).postSeconds()).isZero();
        assertThat(w.requests()).containsExactly(new RequestGroup("m", 1, 1, RequestGroup.Arrival.CONCURRENT));
    }

    @Test
    void parse_shippedExample() {
        ThesisWorkload w = ThesisExamples.read("registry-win.json");
        assertThat(w.cluster().servers()).isEqualTo(8);
        assertThat(w.cluster().coresPerServer()).isEqualTo(4);
        assertThat(w.totalRequests()).isEqualTo(3);
    }

    @Test
    void parse_badInput_namesTheField() {
        assertThatThrownBy(() -> ThesisWorkloadReader.parse(MINIMAL.replace("\"servers\"", "\"severs\"")))
                .hasMessageContaining("unknown field 'cluster.severs'");
        assertThatThrownBy(() -> ThesisWorkloadReader.parse(MINIMAL.replace("{\"model\": \"m\"}", "{\"model\": \"x\"}")))
                .hasMessageContaining("requests[0].model ('x')");
        assertThatThrownBy(() -> ThesisWorkloadReader.parse(MINIMAL.replace("{\"model\": \"m\"}", "{\"model\": \"m\", \"cores\": 2}")))
                .hasMessageContaining("requests[0].cores (2) exceeds cluster.coresPerServer (1)");
        assertThatThrownBy(() -> ThesisWorkloadReader.parse(MINIMAL.replace("\"coldStartSeconds\": 3", "\"coldStartSeconds\": -3")))
                .hasMessageContaining("coldStartSeconds (-3.0)");
        assertThatThrownBy(() -> ThesisWorkloadReader.parse(MINIMAL.replace("{\"model\": \"m\"}", "{\"model\": \"m\", \"arrival\": \"poisson\"}")))
                .hasMessageContaining("requests[0].arrival ('poisson')");
    }

    @Test
    void parse_catalog_defaultsFieldByFieldToTheActualTimes() {
        ThesisWorkload w = ThesisWorkloadReader.parse(MINIMAL.replace("\"inferenceSeconds\": 1}",
                "\"inferenceSeconds\": 1, \"postSeconds\": 5, \"catalog\": {\"cpuSeconds\": 0}}"));

        var catalog = w.models().get(0).catalogProfile();
        assertThat(catalog.cpuSeconds()).isZero();
        assertThat(catalog.coldStartSeconds()).isEqualTo(3.0);
        assertThat(w.models().get(0).profile().cpuSeconds()).isEqualTo(5.0);
        assertThatThrownBy(() -> ThesisWorkloadReader.parse(MINIMAL.replace("\"inferenceSeconds\": 1}",
                "\"inferenceSeconds\": 1, \"catalog\": {\"postSeconds\": 0}}")))
                .hasMessageContaining("unknown field 'models[0].catalog.postSeconds'");
    }
}
