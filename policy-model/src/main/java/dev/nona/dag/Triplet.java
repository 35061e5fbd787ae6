package dev.nona.dag;

import java.util.List;

/**
 * One element of $\Omega_t$: a partition $\pi$ of a subgraph's intermediate tasks, with the root
 * colocated with part $\pi_k$ and the sink with part $\pi_l$ (Nona, Section III-C).
 *
 * @param parts    the parts of $\pi$, each a list of contracted node ids; distinct parts run on distinct servers
 * @param rootPart $k$: index into {@code parts} of the part the root runs with
 * @param sinkPart $l$: index into {@code parts} of the part the sink runs with
 */
public record Triplet(List<List<String>> parts, int rootPart, int sinkPart) {
    public Triplet {
        parts = immutableParts(parts);
        if (rootPart < 0 || rootPart >= Math.max(1, parts.size()) || sinkPart < 0 || sinkPart >= Math.max(1, parts.size())) {
            throw new IllegalArgumentException("BUG: rootPart " + rootPart + "/sinkPart " + sinkPart + " out of range for " + parts.size() + " parts");
        }
    }

    /** {@code parts} itself when it and its parts are already unmodifiable (shared by a partition's triplets), else a copy. */
    private static List<List<String>> immutableParts(List<List<String>> parts) {
        List<List<String>> copy = List.copyOf(parts);
        for (List<String> part : copy) {
            if (List.copyOf(part) != part) {
                return parts.stream().map(List::copyOf).toList();
            }
        }
        return copy;
    }
}
