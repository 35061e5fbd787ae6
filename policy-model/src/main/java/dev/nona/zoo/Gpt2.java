package dev.nona.zoo;

import dev.nona.dag.ModelDag;

/**
 * GPT-2 (a decoder-only transformer with pre-layer-norm blocks) at operator granularity: 10 tasks around the
 * blocks (token ids, their {@code View}, position ids, token and position embeddings, their add, embedding
 * dropout, final layer norm, output {@code View}, tied language-model head over all positions) and 14 per block:
 * layer norm, the q, k and v projections, $QK^T/\sqrt{d_h}$, masked softmax, the product with $V$, the output
 * projection, the residual add, layer norm, the MLP's up projection, GELU, down projection and residual add.
 * Head reshapes and in-block dropouts (identity at inference) are folded into their neighbours. GPT-2 small thus
 * has 178 tasks.
 *
 * <p>Compute counts a multiply-add as 2; layer norm 8 and GELU 8 operations per element; the scale 1 per score;
 * mask and softmax 6 per score; adds 1 per element; embedding lookups, views and dropout 0. Tensors are fp32,
 * except token and position ids (int64).
 *
 * <p>Based on Radford et al., "Language Models are Unsupervised Multitask Learners", OpenAI 2019, and
 * Hugging Face's {@code GPT2LMHeadModel}.
 */
final class Gpt2 {
    private static final int FP32 = 4;
    private static final int INT64 = 8;
    private static final int LAYER_NORM_OPS_PER_ELEMENT = 8;
    private static final int GELU_OPS_PER_ELEMENT = 8;
    private static final int MASKED_SOFTMAX_OPS_PER_ELEMENT = 6;
    private static final int MLP_EXPANSION = 4;

    private final GraphBuilder graph = new GraphBuilder();
    private final Gpt2Config config;
    private final double s;
    private final double d;

    private Gpt2(Gpt2Config config) {
        this.config = config;
        this.s = config.sequenceLength();
        this.d = config.dModel();
    }

    static ModelDag small() {
        return build("gpt2", Gpt2Config.SMALL_128);
    }

    static ModelDag build(String name, Gpt2Config config) {
        return new Gpt2(config).graph(name);
    }

    private ModelDag graph(String name) {
        String x = embeddings();
        for (int layer = 0; layer < config.layers(); layer++) {
            x = block("h." + layer + ".", x);
        }
        x = graph.add("ln_f", LAYER_NORM_OPS_PER_ELEMENT * s * d, s * d * FP32, x);
        x = graph.add("output.view", 0, s * d * FP32, x);
        graph.add("lm_head", 2 * s * d * config.vocabulary(), s * config.vocabulary() * FP32, x);
        return graph.build(name);
    }

    private String embeddings() {
        graph.add("input", 0, s * INT64);
        graph.add("input.view", 0, s * INT64, "input");
        graph.add("position_ids", 0, s * INT64, "input");
        graph.add("wte", 0, s * d * FP32, "input.view");
        graph.add("wpe", 0, s * d * FP32, "position_ids");
        graph.add("embed.add", s * d, s * d * FP32, "wte", "wpe");
        return graph.add("embed.dropout", 0, s * d * FP32, "embed.add");
    }

    private String block(String p, String in) {
        double scores = config.heads() * s * s;
        String ln1 = graph.add(p + "ln_1", LAYER_NORM_OPS_PER_ELEMENT * s * d, s * d * FP32, in);
        String q = linear(p + "attn.q", ln1, d, d);
        String k = linear(p + "attn.k", ln1, d, d);
        String v = linear(p + "attn.v", ln1, d, d);
        String qk = graph.add(p + "attn.scores", 2 * s * s * d + scores, scores * FP32, q, k);
        String softmax = graph.add(p + "attn.softmax", MASKED_SOFTMAX_OPS_PER_ELEMENT * scores, scores * FP32, qk);
        String context = graph.add(p + "attn.context", 2 * s * s * d, s * d * FP32, softmax, v);
        String proj = linear(p + "attn.c_proj", context, d, d);
        String add1 = graph.add(p + "add_1", s * d, s * d * FP32, proj, in);
        String ln2 = graph.add(p + "ln_2", LAYER_NORM_OPS_PER_ELEMENT * s * d, s * d * FP32, add1);
        double hidden = MLP_EXPANSION * d;
        String fc = linear(p + "mlp.c_fc", ln2, d, hidden);
        String gelu = graph.add(p + "mlp.gelu", GELU_OPS_PER_ELEMENT * s * hidden, s * hidden * FP32, fc);
        String down = linear(p + "mlp.c_proj", gelu, hidden, d);
        return graph.add(p + "add_2", s * d, s * d * FP32, down, add1);
    }

    /** A linear layer with bias applied to each of the $s$ positions. */
    private String linear(String id, String in, double inFeatures, double outFeatures) {
        return graph.add(id, s * (2 * inFeatures + 1) * outFeatures, s * outFeatures * FP32, in);
    }
}
