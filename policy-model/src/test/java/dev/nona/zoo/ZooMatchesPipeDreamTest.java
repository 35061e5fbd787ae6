package dev.nona.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.dag.Edge;
import dev.nona.dag.ModelDag;
import dev.nona.dag.SharedDags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checks the generated CNNs against the real PipeDream profiler graphs in {@code shared/dags/pipedream}: PipeDream
 * numbers its nodes in the order our builders add tasks, so node {@code nodeN} must be our N-th task, every
 * PipeDream edge must be one of ours (and no more), and each edge's bytes must be the producer's
 * {@code activation_size} divided by the profiled batch (read from the input node: 3x224x224 fp32 per image).
 */
final class ZooMatchesPipeDreamTest {
    private static final double IMAGE_BYTES = 3 * 224 * 224 * 4;

    @ParameterizedTest
    @ValueSource(strings = {"alexnet", "vgg16", "resnet18", "densenet121"})
    void generated_equalsPipeDreamGraph_nodeByNodeAndEdgeByEdge(String model) throws IOException {
        PipeDreamGraph pd = PipeDreamGraph.read(SharedDags.pipedream(model));
        ModelDag ours = ModelZoo.load(model);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < ours.tasks().size(); i++) {
            index.put(ours.tasks().get(i).id(), i + 1);
        }
        double batch = pd.activationBytes().get(1) / IMAGE_BYTES;

        assertThat(ours.tasks()).hasSize(pd.activationBytes().size());
        Set<List<Integer>> ourEdges = new HashSet<>();
        for (Edge e : ours.edges()) {
            int from = index.get(e.from());
            ourEdges.add(List.of(from, index.get(e.to())));
            double expected = pd.isSize(from) ? pd.activationBytes().get(from) : pd.activationBytes().get(from) / batch;
            assertThat(e.bytes()).as("bytes of %s (PipeDream node%d)", e.from(), from).isEqualTo(expected);
        }
        assertThat(ourEdges).isEqualTo(pd.edges());
    }

    /** The parts of a PipeDream {@code graph.txt} this test needs, nodes keyed by their number. */
    private record PipeDreamGraph(Map<Integer, Double> activationBytes, Set<Integer> sizeNodes, Set<List<Integer>> edges) {
        static PipeDreamGraph read(Path file) throws IOException {
            Map<Integer, Double> bytes = new HashMap<>();
            Set<Integer> sizes = new HashSet<>();
            Set<List<Integer>> edges = new HashSet<>();
            for (String line : Files.readAllLines(file)) {
                String[] parts = line.strip().split(" -- ");
                if (line.startsWith("\t")) {
                    edges.add(List.of(number(parts[0]), number(parts[1])));
                } else if (!line.isBlank()) {
                    int node = number(parts[0]);
                    bytes.put(node, field(parts[2], "activation_size"));
                    if (parts[1].startsWith("Size(")) {
                        sizes.add(node);
                    }
                }
            }
            return new PipeDreamGraph(bytes, sizes, edges);
        }

        boolean isSize(int node) {
            return sizeNodes.contains(node);
        }

        private static int number(String nodeId) {
            return Integer.parseInt(nodeId.substring("node".length()));
        }

        private static double field(String fields, String key) {
            List<String> values = new ArrayList<>();
            for (String kv : fields.split(", ")) {
                if (kv.startsWith(key + "=")) {
                    values.add(kv.substring(key.length() + 1));
                }
            }
            return Double.parseDouble(values.get(0));
        }
    }
}
