package dev.nona.sim.policy.table;

import java.util.Arrays;

/**
 * A triplet $(\pi, \pi_k, \pi_l)$ of one subgraph in task indices: parts of the intermediate tasks (distinct parts
 * on distinct servers), the root with part $k$, the sink with part $l$ (Nona, Section III-C). With no
 * intermediate tasks, {@code parts} is empty and the sink runs with the root when {@code sinkWithRoot}.
 */
public final class SimChoice {
    private final int[][] parts;
    private final int rootPart;
    private final int sinkPart;
    private final boolean sinkWithRoot;

    public SimChoice(int[][] parts, int rootPart, int sinkPart, boolean sinkWithRoot) {
        this.parts = new int[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            this.parts[i] = parts[i].clone();
        }
        if (parts.length > 0 && (rootPart < 0 || rootPart >= parts.length || sinkPart < 0 || sinkPart >= parts.length)) {
            throw new IllegalArgumentException("choice rootPart (" + rootPart + ") and sinkPart (" + sinkPart
                    + ") must index one of its " + parts.length + " parts");
        }
        this.rootPart = rootPart;
        this.sinkPart = sinkPart;
        this.sinkWithRoot = parts.length == 0 ? sinkWithRoot : rootPart == sinkPart;
    }

    /** A triplet for a subgraph with parts: root with part {@code k}, sink with part {@code l}. */
    public static SimChoice of(int[][] parts, int k, int l) {
        return new SimChoice(parts, k, l, k == l);
    }

    public int partCount() {
        return parts.length;
    }

    public int partSize(int p) {
        return parts[p].length;
    }

    public int task(int p, int i) {
        return parts[p][i];
    }

    public int rootPart() {
        return rootPart;
    }

    public int sinkPart() {
        return sinkPart;
    }

    public boolean sinkWithRoot() {
        return sinkWithRoot;
    }

    /** True if the whole subgraph runs on the root's server: at most one part, holding the root and the sink. */
    public boolean isWhole() {
        return parts.length == 0 ? sinkWithRoot : parts.length == 1;
    }

    @Override
    public String toString() {
        return "(" + Arrays.deepToString(parts) + ", k=" + rootPart + ", l=" + sinkPart + (parts.length == 0 ? ", sinkWithRoot=" + sinkWithRoot : "") + ")";
    }
}
