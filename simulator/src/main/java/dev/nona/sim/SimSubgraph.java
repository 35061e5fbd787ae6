package dev.nona.sim;

import java.util.Arrays;

/**
 * The part of a job's contracted DAG between two consecutive roots, in task indices of its {@link SimJobClass}
 * (Nona's decomposition, Section III-C). {@code root == sink} never holds.
 *
 * @param root          index of the root $t$
 * @param sink          index of the next root $\mathcal{N}(t)$
 * @param intermediates indices of the tasks strictly between them
 */
public record SimSubgraph(int root, int sink, int[] intermediates) {
    public SimSubgraph {
        intermediates = intermediates.clone();
        if (root < 0 || sink < 0 || root == sink) {
            throw new IllegalArgumentException("subgraph root (" + root + ") and sink (" + sink + ") must be distinct task indices");
        }
    }

    @Override
    public int[] intermediates() {
        return intermediates.clone();
    }

    /** The {@code i}-th intermediate task index, without copying. */
    public int intermediate(int i) {
        return intermediates[i];
    }

    /** Number of intermediate tasks. */
    public int size() {
        return intermediates.length;
    }

    @Override
    public String toString() {
        return "SimSubgraph[root=" + root + ", sink=" + sink + ", intermediates=" + Arrays.toString(intermediates) + "]";
    }
}
