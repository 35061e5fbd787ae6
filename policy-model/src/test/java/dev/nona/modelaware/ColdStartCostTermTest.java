package dev.nona.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.ContractedNode;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.ColdStart;
import dev.nona.workload.DagSource;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.Workload;
import dev.nona.workload.WorkloadReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ColdStartCostTermTest {
    private static final Cluster CLUSTER = new Cluster(4, 1e9, 1e10);

    private static NonaProblem oneTask(double ops) {
        JobClass job = new JobClass("t5-small", 0.1,
                Map.of("x", new ContractedNode("x", ops, List.of("x"), false)), "x", List.of());
        return new NonaProblem(List.of(job), CLUSTER, Background.NONE, CostModel.PAPER);
    }

    @Test
    void oneServerJob_paysExactlyTheExpectedColdStart() {
        // 1e9 ops at 1e9 ops/s: 1 s. Two of eight servers warm under uniform mapping: p = 0.75, e = 0.75 * 3 s.
        double e = ExpectedColdStart.seconds(ExpectedColdStart.probabilityUniform(2, 8), 3.0);
        double base = NonaOptimizer.solve(oneTask(1e9)).job("t5-small").predictedJctSeconds();
        double with = NonaOptimizer.solve(ColdStartCostTerm.apply(oneTask(1e9), Map.of("t5-small", e)))
                .job("t5-small").predictedJctSeconds();

        assertThat(base).isCloseTo(1.0, within(1e-9));
        assertThat(with).isCloseTo(1.0 + 2.25, within(1e-9));
    }

    @Test
    void term_isSharedInProportionToOps_virtualNodesUntouched() {
        JobClass job = new JobClass("m", 1,
                Map.of("src", new ContractedNode("src", 0, List.of(), true),
                        "a", new ContractedNode("a", 3e9, List.of("a"), false),
                        "b", new ContractedNode("b", 1e9, List.of("b"), false)), "src", List.of());

        JobClass out = ColdStartCostTerm.withTerm(job, 2.0, 1e9);

        // e * nu = 2e9 extra ops over P = 4e9: factor 1.5.
        assertThat(out.nodes().get("a").ops()).isCloseTo(4.5e9, within(1.0));
        assertThat(out.nodes().get("b").ops()).isCloseTo(1.5e9, within(1.0));
        assertThat(out.nodes().get("src").ops()).isZero();
    }

    @Test
    void unlistedModels_andNegativeTerms() {
        NonaProblem p = oneTask(1e9);
        assertThat(ColdStartCostTerm.apply(p, Map.of()).jobs()).isEqualTo(p.jobs());
        assertThatThrownBy(() -> ColdStartCostTerm.apply(p, Map.of("t5-small", -1.0)))
                .hasMessageContaining("model 't5-small': expected cold start (-1.0)");
    }

    @Test
    void expectedSeconds_fromTheWorkloadsColdStartFigures() {
        // 8 requests/s of a 1 s model: L = 8 in flight; 2 warm servers x target 3 = 6 slots; p = 0.25; e = 0.75 s.
        Workload w = new Workload(CLUSTER, List.of(
                new ModelSpec("t5-small", new DagSource.Zoo("alexnet"), 8.0, new ColdStart(3.0, 2)),
                new ModelSpec("other", new DagSource.Zoo("alexnet"), 8.0)), Background.NONE);

        Map<String, Double> e = ColdStartCostTerm.expectedSeconds(w, oneTask(1e9), 3);

        assertThat(e).containsOnlyKeys("t5-small");
        assertThat(e.get("t5-small")).isCloseTo(0.75, within(1e-12));
    }

    @Test
    void workloadReader_readsTheOptionalColdStartField() {
        String json = """
                {"cluster": {"servers": 8, "opsPerSecond": 1e9, "linkBitsPerSecond": 1e10},
                 "models": [{"name": "m", "dag": {"zoo": "alexnet"}, "ratePerSecond": 1,
                             "coldStart": {"seconds": 3.0, "warmServers": 2}}]}""";
        assertThat(WorkloadReader.parse(json, false, null).models().get(0).coldStart()).isEqualTo(new ColdStart(3.0, 2));
        assertThatThrownBy(() -> WorkloadReader.parse(json.replace(", \"warmServers\": 2", ""), false, null))
                .hasMessageContaining("models[0].coldStart.warmServers");
        assertThatThrownBy(() -> WorkloadReader.parse(json.replace("\"warmServers\": 2", "\"warmServers\": 1.5"), false, null))
                .hasMessageContaining("models[0].coldStart.warmServers (1.5)");
        assertThatThrownBy(() -> WorkloadReader.parse(json.replace("\"seconds\": 3.0", "\"seconds\": -3.0"), false, null))
                .hasMessageContaining("coldStart.seconds (-3.0)");
    }
}
