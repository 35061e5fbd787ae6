package dev.nona.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.DagValidator;
import dev.nona.dag.ModelDag;
import dev.nona.dag.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

final class ModelZooTest {

    @Test
    void names_areThePaperFiveModels() {
        assertThat(ModelZoo.names()).containsExactly("alexnet", "vgg16", "resnet18", "densenet121", "gpt2");
    }

    @Test
    void load_unknownName_namesItAndListsKnownModels() {
        assertThatThrownBy(() -> ModelZoo.load("resnet1000"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'resnet1000'")
                .hasMessageContaining("[alexnet, vgg16, resnet18, densenet121, gpt2]");
    }

    @ParameterizedTest
    @MethodSource("dev.nona.zoo.ModelZoo#names")
    void load_eachModel_isAValidDagNamedAfterIt(String name) {
        ModelDag dag = ModelZoo.load(name);

        DagValidator.validate(dag);
        assertThat(dag.name()).isEqualTo(name);
        assertThat(dag.tasks()).allSatisfy(t -> assertThat(t.ops()).isFinite().isNotNegative());
    }

    @ParameterizedTest
    @CsvSource({"alexnet, 23, 23", "vgg16, 41, 41", "resnet18, 71, 79", "densenet121, 429, 487", "gpt2, 178, 226"})
    void load_taskAndEdgeCounts_matchPipeDreamAndTableII(String name, int tasks, int edges) {
        ModelDag dag = ModelZoo.load(name);

        assertThat(dag.tasks()).hasSize(tasks);
        assertThat(dag.edges()).hasSize(edges);
    }

    /**
     * Published multiply-accumulate counts for a 224x224 image (torchvision's model docs, whose "GFLOPS" column
     * counts multiply-adds): AlexNet 0.71, VGG16 15.47, ResNet18 1.81, DenseNet121 2.83 GMACs. Our ops count a
     * multiply-add as 2 and also count the small element-wise work (batch norm, ReLU, pooling, adds), hence 2%.
     */
    @ParameterizedTest
    @CsvSource({"alexnet, 0.71", "vgg16, 15.47", "resnet18, 1.81", "densenet121, 2.83"})
    void totalOps_halved_matchPublishedGigaMacs(String name, double publishedGigaMacs) {
        double totalOps = ModelZoo.load(name).tasks().stream().mapToDouble(Task::ops).sum();

        assertThat(totalOps / 2 / 1e9).isCloseTo(publishedGigaMacs, within(0.02 * publishedGigaMacs));
    }

    @Test
    void convolutionOps_vgg16FirstLayer_countsMultiplyAddAsTwoPlusBias() {
        // 64 outputs x 224 x 224 positions, each 3 x 3 x 3 multiply-adds plus a bias add
        double expected = 64.0 * 224 * 224 * (2 * 27 + 1);

        assertThat(ops(ModelZoo.load("vgg16"), "features.conv1")).isEqualTo(expected);
    }

    @Test
    void linearOps_resnet18Classifier_is2InOutPlusBias() {
        assertThat(ops(ModelZoo.load("resnet18"), "fc")).isEqualTo((2.0 * 512 + 1) * 1000);
    }

    @ParameterizedTest
    @CsvSource({
        "alexnet, input, 602112",                           // 3 x 224 x 224 x 4
        "alexnet, features.conv1, 774400",                  // 64 x 55 x 55 x 4
        "alexnet, flatten.view, 36864",                     // 256 x 6 x 6 x 4
        "alexnet, flatten.size, 4",                         // one int
        "vgg16, features.pool5, 100352",                    // 512 x 7 x 7 x 4
        "resnet18, maxpool, 802816",                        // 64 x 56 x 56 x 4
        "resnet18, layer2.0.downsample.conv, 401408",       // 128 x 28 x 28 x 4
        "resnet18, layer4.1.relu2, 100352",                 // 512 x 7 x 7 x 4
        "densenet121, features.denseblock1.denselayer6.concat, 3211264",  // 256 x 56 x 56 x 4
        "densenet121, features.transition1.pool, 401408",   // 128 x 28 x 28 x 4
        "densenet121, features.relu5, 200704",              // 1024 x 7 x 7 x 4
        "gpt2, input, 1024",                                // 128 int64 token ids
        "gpt2, h.0.attn.q, 393216",                         // 128 x 768 x 4
        "gpt2, h.0.attn.scores, 786432",                    // 12 heads x 128 x 128 x 4
        "gpt2, h.11.mlp.c_fc, 1572864",                     // 128 x 3072 x 4
    })
    void outputBytes_knownLayers_matchTensorShapes(String name, String task, double bytes) {
        ModelDag dag = ModelZoo.load(name);

        assertThat(dag.edges().stream().filter(e -> e.from().equals(task)))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.bytes()).isEqualTo(bytes));
    }

    @Test
    void load_twice_givesEqualButFreshDags() {
        assertThat(ModelZoo.load("resnet18")).isEqualTo(ModelZoo.load("resnet18"));
    }

    private static double ops(ModelDag dag, String id) {
        return dag.tasks().stream().filter(t -> t.id().equals(id)).findFirst().orElseThrow().ops();
    }
}
