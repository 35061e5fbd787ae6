package dev.nona.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.DagValidator;
import dev.nona.dag.Edge;
import dev.nona.dag.ModelDag;
import dev.nona.dag.Task;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

final class Gpt2Test {

    @Test
    void small_totalOps_matchTwoFlopsPerParameterPerTokenPlusAttention() {
        // GPT-2 small has 124.44M parameters (tied embedding); a forward pass costs about 2 FLOPs per parameter
        // per token (the position table is a lookup, 0.79M) plus 4 s^2 d per layer for QK^T and AV.
        double s = 128;
        double matmulParameters = 124_439_808 - 1024 * 768;
        double expected = 2 * matmulParameters * s + 12 * 4 * s * s * 768;
        double total = ModelZoo.load("gpt2").tasks().stream().mapToDouble(Task::ops).sum();

        assertThat(total).isCloseTo(expected, within(0.02 * expected));
    }

    @Test
    void block_attention_readsQkvFromTheLayerNormAndAddsTheResidual() {
        ModelDag dag = ModelZoo.load("gpt2");

        assertThat(inputsOf(dag, "h.3.attn.q")).containsExactly("h.3.ln_1");
        assertThat(inputsOf(dag, "h.3.attn.scores")).containsExactly("h.3.attn.q", "h.3.attn.k");
        assertThat(inputsOf(dag, "h.3.attn.context")).containsExactly("h.3.attn.softmax", "h.3.attn.v");
        assertThat(inputsOf(dag, "h.3.add_1")).containsExactly("h.3.attn.c_proj", "h.2.add_2");
        assertThat(inputsOf(dag, "h.3.add_2")).containsExactly("h.3.mlp.c_proj", "h.3.add_1");
    }

    @Test
    void build_tinyConfig_hasTenPlusFourteenTasksPerLayer() {
        ModelDag dag = Gpt2.build("tiny", new Gpt2Config(2, 8, 2, 4, 10));

        assertThat(dag.tasks()).hasSize(10 + 2 * 14);
        // lm head: 4 positions x 8 x 10 multiply-adds
        assertThat(dag.tasks().get(dag.tasks().size() - 1).ops()).isEqualTo(2.0 * 4 * 8 * 10);
    }

    @Property(tries = 50, seed = "20261123")
    void build_anyConfig_isValidWithTenPlusFourteenTasksPerLayer(
            @ForAll @IntRange(min = 1, max = 6) int layers, @ForAll @IntRange(min = 1, max = 4) int heads,
            @ForAll @IntRange(min = 1, max = 16) int headWidth, @ForAll @IntRange(min = 1, max = 64) int tokens) {
        ModelDag dag = Gpt2.build("gpt", new Gpt2Config(layers, heads * headWidth, heads, tokens, 100));

        DagValidator.validate(dag);
        assertThat(dag.tasks()).hasSize(10 + 14 * layers);
        assertThat(dag.edges()).hasSize(10 + 18 * layers);
    }

    @Test
    void config_headsNotDividingWidth_isRejectedNamingBoth() {
        assertThatThrownBy(() -> new Gpt2Config(12, 768, 10, 128, 50257))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("GPT-2 heads (10) must divide d (768)");
    }

    private static List<String> inputsOf(ModelDag dag, String id) {
        return dag.edges().stream().filter(e -> e.to().equals(id)).map(Edge::from).toList();
    }
}
