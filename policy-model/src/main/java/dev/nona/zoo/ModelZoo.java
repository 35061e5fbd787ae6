package dev.nona.zoo;

import dev.nona.dag.ModelDag;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The built-in models of the Nona paper's evaluation, generated from their architectures: one task per operator
 * at the granularity of PipeDream's profiler graphs, with compute cost in operations (a multiply-add counts 2)
 * and edge sizes equal to the producer's output tensor for one request (fp32, batch 1). See {@code docs/zoo.md}.
 *
 * <p>Based on Nona (CloudNet'24), Section IV and Table II, which evaluates these five models. Thread-safe: every
 * call to {@link #load} builds a fresh immutable DAG.
 */
public final class ModelZoo {
    private static final Map<String, Supplier<ModelDag>> MODELS = new LinkedHashMap<>();

    static {
        MODELS.put("alexnet", AlexNet::build);
        MODELS.put("vgg16", Vgg::vgg16);
        MODELS.put("resnet18", ResNet::resnet18);
        MODELS.put("densenet121", DenseNet::densenet121);
        MODELS.put("gpt2", Gpt2::small);
    }

    private ModelZoo() {
    }

    /** The names {@link #load} accepts, in a fixed order. */
    public static List<String> names() {
        return List.copyOf(MODELS.keySet());
    }

    /**
     * Generates the named model's DAG.
     *
     * @throws IllegalArgumentException if the name is not one of {@link #names()}; the message names it and lists them
     */
    public static ModelDag load(String name) {
        Objects.requireNonNull(name, "zoo model name");
        Supplier<ModelDag> model = MODELS.get(name);
        if (model == null) {
            throw new IllegalArgumentException("unknown zoo model '" + name + "'; known models: " + names());
        }
        return model.get();
    }
}
