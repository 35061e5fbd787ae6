package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A subgraph's triplets must partition its intermediates into non-empty parts. */
final class SubgraphChoicesTest {
    private static final Subgraph SG = new Subgraph("r", "s", List.of("a", "b", "c"), List.of());

    @Test
    void everyPartition_isAccepted() {
        assertThatCode(() -> new SubgraphChoices(SG, TestingTriplets.enumerate(SG.intermediates()))).doesNotThrowAnyException();
    }

    @Test
    void missingDuplicatedOrUnknownIntermediate_isRejectedNamingTheTriplet() {
        for (List<List<String>> parts : List.of(List.of(List.of("a", "b")), List.of(List.of("a", "b"), List.of("b", "c")),
                List.of(List.of("a", "b", "c", "a")), List.of(List.of("a", "b", "x")), List.of(List.of("a", "b", "c"), List.of("x")))) {
            Triplet bad = new Triplet(parts, 0, 0);
            List<Triplet> triplets = List.of(new Triplet(List.of(List.of("a", "b", "c")), 0, 0), bad);
            assertThatThrownBy(() -> new SubgraphChoices(SG, triplets)).as("parts %s", parts)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("subgraph r: triplet " + bad + " does not partition the intermediates [a, b, c]");
        }
    }

    @Test
    void emptyPart_isRejectedBeforeThePartitionCheck() {
        Triplet bad = new Triplet(List.of(List.of("x"), List.of()), 0, 1);
        assertThatThrownBy(() -> new SubgraphChoices(SG, List.of(bad))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("subgraph r: triplet " + bad + " has an empty part");
    }
}
