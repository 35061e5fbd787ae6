package dev.nona.sim.policy.table;

import dev.nona.sim.SimSubgraph;
import java.util.ArrayList;
import java.util.List;

/**
 * Enumerates $\Omega_t$ for a subgraph: every set partition $\pi$ of its intermediate tasks (restricted-growth
 * strings), with every choice of root part $k$ and sink part $l$. With no intermediates, the two choices are the
 * sink with the root or elsewhere. The count is $\sum_{\pi} |\pi|^2$ over partitions, which grows like the Bell
 * numbers: {@code limit} caps it (partitions are produced coarsest-first, so a cap keeps the low-cut options).
 */
public final class TripletSpace {
    private TripletSpace() {
    }

    public static List<SimChoice> enumerate(SimSubgraph sg, int limit) {
        List<SimChoice> out = new ArrayList<>();
        int m = sg.size();
        if (m == 0) {
            out.add(new SimChoice(new int[0][], 0, 0, true));
            out.add(new SimChoice(new int[0][], 0, 0, false));
            return out;
        }
        for (int blocks = 1; blocks <= m && out.size() < limit; blocks++) {
            int[] rgs = new int[m];
            enumerate(sg, rgs, 1, 0, blocks, out, limit);
        }
        return out;
    }

    private static void enumerate(SimSubgraph sg, int[] rgs, int i, int max, int blocks, List<SimChoice> out, int limit) {
        if (out.size() >= limit) {
            return;
        }
        int m = rgs.length;
        if (i == m) {
            if (max + 1 == blocks) {
                addAllRootsAndSinks(sg, rgs, blocks, out, limit);
            }
            return;
        }
        for (int b = 0; b <= Math.min(max + 1, blocks - 1); b++) {
            rgs[i] = b;
            enumerate(sg, rgs, i + 1, Math.max(max, b), blocks, out, limit);
        }
    }

    private static void addAllRootsAndSinks(SimSubgraph sg, int[] rgs, int blocks, List<SimChoice> out, int limit) {
        int[][] parts = new int[blocks][];
        int[] sizes = new int[blocks];
        for (int b : rgs) {
            sizes[b]++;
        }
        for (int b = 0; b < blocks; b++) {
            parts[b] = new int[sizes[b]];
            sizes[b] = 0;
        }
        for (int i = 0; i < rgs.length; i++) {
            parts[rgs[i]][sizes[rgs[i]]++] = sg.intermediate(i);
        }
        for (int k = 0; k < blocks; k++) {
            for (int l = 0; l < blocks; l++) {
                if (out.size() < limit) {
                    out.add(SimChoice.of(parts, k, l));
                }
            }
        }
    }
}
