package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class TripletEnumeratorTest {

    /** Root r, sink t, intermediates each on its own branch r > x > t. */
    private static Subgraph independent(int m) {
        List<String> ids = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            ids.add("x" + i);
            edges.add(new Edge("r", "x" + i, 1));
            edges.add(new Edge("x" + i, "t", 1));
        }
        return new Subgraph("r", "t", ids, edges);
    }

    @Test
    void enumerate_twoIntermediates_givesFiveTriplets() {
        SubgraphTriplets result = TripletEnumerator.enumerate(independent(2), EnumerationBound.defaults());

        assertThat(result.triplets()).containsExactly(
                new Triplet(List.of(List.of("x0", "x1")), 0, 0),
                new Triplet(List.of(List.of("x0"), List.of("x1")), 0, 0),
                new Triplet(List.of(List.of("x0"), List.of("x1")), 0, 1),
                new Triplet(List.of(List.of("x0"), List.of("x1")), 1, 0),
                new Triplet(List.of(List.of("x0"), List.of("x1")), 1, 1));
        assertThat(result.capped()).isFalse();
        assertThat(result.exactCount()).isEqualTo(BigInteger.valueOf(5));
    }

    @ParameterizedTest
    @CsvSource({"0,0", "1,1", "2,5", "3,22", "4,99", "5,471", "6,2386"})
    void enumerate_exact_countsSumOfSquaredPartSizes(int m, int expected) {
        // 3 intermediates: 1 partition of 1 part, 3 of 2 parts, 1 of 3 parts: 1*1 + 3*4 + 1*9 = 22
        SubgraphTriplets result = TripletEnumerator.enumerate(independent(m), EnumerationBound.exact());

        assertThat(result.triplets()).hasSize(expected).doesNotHaveDuplicates();
        assertThat(result.exactCount()).isEqualTo(BigInteger.valueOf(expected));
        assertThat(result.family()).isEqualTo(TripletFamily.EXACT);
    }

    @Test
    void enumerate_everyTripletPartitionsTheIntermediates() {
        for (Triplet t : TripletEnumerator.enumerate(independent(4), EnumerationBound.exact()).triplets()) {
            assertThat(t.parts().stream().flatMap(List::stream)).containsExactlyInAnyOrder("x0", "x1", "x2", "x3");
            assertThat(t.parts()).allSatisfy(p -> assertThat(p).isNotEmpty());
        }
    }

    @Test
    void enumerate_overBoundWithFewBranches_keepsEachBranchWhole() {
        // branches {a, b} and {c}: 3 intermediates (22 triplets) but only 2 branches (5 triplets)
        Subgraph s = new Subgraph("r", "t", List.of("a", "b", "c"), List.of(new Edge("r", "a", 1), new Edge("a", "b", 1),
                new Edge("b", "t", 1), new Edge("r", "c", 1), new Edge("c", "t", 1)));

        SubgraphTriplets result = TripletEnumerator.enumerate(s, new EnumerationBound(10));

        assertThat(result.capped()).isTrue();
        assertThat(result.family()).isEqualTo(TripletFamily.BRANCH_SEGMENTS);
        assertThat(result.exactCount()).isEqualTo(BigInteger.valueOf(22));
        assertThat(result.triplets()).hasSize(5)
                .allSatisfy(t -> assertThat(t.parts()).anySatisfy(p -> assertThat(p).containsSubsequence("a", "b")));
    }

    @Test
    void enumerate_overBoundWithRoomLeft_cutsTheLargestBranchInHalves() {
        // branches {a, b, c} and {d}: 4 intermediates (99 triplets); bound 22 allows 3 pieces: {a, b}, {c}, {d}
        Subgraph s = new Subgraph("r", "t", List.of("a", "b", "c", "d"), List.of(new Edge("r", "a", 1),
                new Edge("a", "b", 1), new Edge("b", "c", 1), new Edge("c", "t", 1), new Edge("r", "d", 1), new Edge("d", "t", 1)));

        SubgraphTriplets result = TripletEnumerator.enumerate(s, new EnumerationBound(22));

        assertThat(result.family()).isEqualTo(TripletFamily.BRANCH_SEGMENTS);
        assertThat(result.maxParts()).isEqualTo(3);
        assertThat(result.triplets()).hasSize(22)
                .allSatisfy(t -> assertThat(t.parts()).anySatisfy(p -> assertThat(p).containsSubsequence("a", "b")))
                .anySatisfy(t -> assertThat(t.parts()).containsExactly(List.of("a", "b"), List.of("c"), List.of("d")));
    }

    @Test
    void enumerate_overBoundWithManyBranches_limitsTheNumberOfParts() {
        // 3 independent branches: 22 triplets > 21; at most 2 parts: 1*1 + 3*4 = 13
        SubgraphTriplets result = TripletEnumerator.enumerate(independent(3), new EnumerationBound(21));

        assertThat(result.family()).isEqualTo(TripletFamily.WHOLE_BRANCHES_AT_MOST_K_PARTS);
        assertThat(result.maxParts()).isEqualTo(2);
        assertThat(result.triplets()).hasSize(13).allSatisfy(t -> assertThat(t.parts()).hasSizeLessThanOrEqualTo(2));
        assertThat(result.capped()).isTrue();
    }

    @Test
    void enumerate_boundOfExactlyTheCount_isExact() {
        assertThat(TripletEnumerator.enumerate(independent(3), new EnumerationBound(22)).capped()).isFalse();
    }

    @Test
    void enumerate_boundOfOne_colocatesEverything() {
        SubgraphTriplets result = TripletEnumerator.enumerate(independent(5), new EnumerationBound(1));

        assertThat(result.triplets()).containsExactly(new Triplet(List.of(List.of("x0", "x1", "x2", "x3", "x4")), 0, 0));
    }

    @Test
    void enumerate_neverExceedsTheBound() {
        for (long bound : new long[] {1, 2, 4, 5, 13, 50, 100, 500}) {
            assertThat(TripletEnumerator.enumerate(independent(6), new EnumerationBound(bound)).triplets())
                    .hasSizeLessThanOrEqualTo((int) bound);
        }
    }

    @Test
    void setPartitions_countsAreBellNumbers() {
        long[] bell = {1, 2, 5, 15, 52, 203, 877, 4140};
        for (int m = 1; m <= bell.length; m++) {
            List<String> seen = new ArrayList<>();
            SetPartitions.forEach(m, m, rgs -> seen.add(Arrays.toString(rgs)));
            assertThat(seen).as("m=%d", m).hasSize((int) bell[m - 1]);
            assertThat(new HashSet<>(seen)).hasSize(seen.size());
        }
    }

    @Test
    void bound_belowOne_rejected() {
        assertThatThrownBy(() -> new EnumerationBound(0)).hasMessage("maxTripletsPerSubgraph (0) must be >= 1");
    }
}
