package dev.nona.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.dag.ContractedDag;
import dev.nona.dag.DagContractor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Contraction (Technique 1 of Nona) applied to the zoo, beside Table II of the paper. */
final class ZooContractionTest {

    @ParameterizedTest
    @CsvSource({"alexnet, 1", "vgg16, 1", "resnet18, 10", "densenet121, 4"})
    void contract_cnns_matchTableII(String name, int contracted) {
        assertThat(DagContractor.contract(ModelZoo.load(name)).nodes()).hasSize(contracted);
    }

    /**
     * Table II reports 40; ours keeps per block the layer norm, the three q/k/v projections (three parallel
     * branches), scores+softmax, context+output projection and add..add (7 nodes: the residual edge around the
     * non-contractible attention keeps the block input apart), plus 4 for token ids, the two embedding branches
     * and their sum: 4 + 12 x 7 = 88. See docs/zoo.md.
     */
    @Test
    void contract_gpt2_keepsSevenNodesPerBlockPlusFour() {
        ContractedDag contracted = DagContractor.contract(ModelZoo.load("gpt2"));

        assertThat(contracted.nodes()).hasSize(4 + 12 * 7);
        assertThat(tasksOfNodeHolding(contracted, "h.5.add_1"))
                .containsExactly("h.5.add_1", "h.5.ln_2", "h.5.mlp.c_fc", "h.5.mlp.gelu", "h.5.mlp.c_proj", "h.5.add_2");
        assertThat(tasksOfNodeHolding(contracted, "h.5.attn.k")).containsExactly("h.5.attn.k");
    }

    private static List<String> tasksOfNodeHolding(ContractedDag dag, String task) {
        return dag.node(dag.nodeOfTask().get(task)).originalTasks();
    }
}
