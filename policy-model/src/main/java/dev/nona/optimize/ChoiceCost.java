package dev.nona.optimize;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import dev.nona.queueing.PooledServers;
import dev.nona.queueing.PooledWait;
import dev.nona.queueing.ServerWaits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The cost of one triplet $(\pi, \pi_k, \pi_l)$ of one subgraph: which edges it cuts (Eq. (IV)) and how long the
 * subgraph takes from the root's completion until the sink may start (Eqs. (X)&ndash;(XI) without the sink's own
 * compute), as a function of the link wait $\phi$ and the server waits $(W, f)$ of {@link ServerWaits}.
 *
 * <p><b>Cost propagation.</b> Each part runs on its own server and executes its tasks one after another in
 * topological order; the root runs with part $k$, the sink with part $l$, and an edge is cut when its endpoints
 * are on different servers. A part first receives its cut inputs from the root one after another (their delays
 * $c_e = \phi + S_e$ add up, as in Eq. (X)), then runs its tasks; a task whose input comes from a task of
 * <em>another part</em> (the case the paper assumes away) cannot start before that task finished plus the
 * transfer's delay $c_e$, and the part's server idles until then. When the part is done it sends its cut outputs
 * to the sink one after another. So the completion time of part $i$ is
 * $$\chi_i = \mathbb{1}(i \ne k)\sum_{\text{root}\to\pi_i} c_e + \text{(sequential schedule of } \pi_i
 * \text{'s tasks, each } p^t/\nu\text{ plus its server wait, respecting cross-part arrivals)} + \mathbb{1}(i \ne l)
 * \sum_{\pi_i \to \text{sink}} c_e,$$
 * which is exactly Eq. (X) when no intermediate task depends on a task of another part (fork-join subgraphs),
 * and the subgraph's time is $\max_i \chi_i$ (Eq. (XI)), also bounded below by the delay of a direct root-to-sink
 * edge when $k \ne l$ (an edge the paper's equations do not mention).
 *
 * <p><b>Server waits (our extension; zero in the paper's formulation).</b> The root part runs on the root's
 * server, so its first task <em>re-enters</em> that server and waits $f\,p/\nu$; the first task of every other part
 * <em>enters</em> a new server and waits $W$ after its root inputs arrived; every further task of a part re-enters
 * ($f\,p/\nu$), except that a task whose input arrives over the link joins the queue afresh at that moment ($W$
 * after the arrival). The sink re-enters part $l$'s server after part $l$'s last task ($f\,p^{sink}/\nu$), or waits
 * $W$ after an input from another part (or the direct root edge) arrives, whichever is later. So the delay now
 * includes the sink's wait. All waits are constants of the solve, so the delay stays an upper envelope of affine
 * functions of $\phi$ and the optimiser's LP structure is unchanged.
 *
 * <p><b>Fork&ndash;join under the controller's mapping</b> ({@link CostModel#controllerMapping}; waits $(W, f)$ then
 * zero). Every part other than the root's is sent to its own server, which it joins from outside: it waits there
 * a random time $Y_i$ of the pooled queue ({@link PooledServers#waits}), independently of the other parts, so the
 * subgraph's delay is the expected maximum $E[\max(d, \max_{i \ne k} (a_i + Y_i))]$
 * ({@link PooledServers#expectedMax}), $d$ the root part's path (and a direct root-to-sink edge), $a_i$ the time part
 * $i$'s outputs reach the sink without the wait. Each $a_i$ and $d$ is an upper envelope of affine functions of
 * $\phi$ (precomputed per part), so the delay is non-decreasing in $\phi$, though no longer piecewise affine: the
 * LP at a fixed $\hat\phi$ needs only its value there, and the search over $\hat\phi$ only its monotonicity. A part
 * fed by another remote part does not inherit that part's wait (an approximation; zoo's subgraphs are fork-joins).
 *
 * <p><b>Heterogeneous servers and cold starts</b> (beyond both papers; docs/optimizer.md, "Heterogeneous servers,
 * memory and cold starts"). Under per-class speeds each task of part $i$ computes at the speed the caller gives it
 * (its model's routed speed $\nu_j$, {@link dev.nona.queueing.LeastExpectedFinish}; for a model no class holds whole,
 * the effective speed of the classes that hold the part, {@link dev.nona.queueing.FastestIdleFirst}), and the sink (part $l$'s
 * speed) and a first subgraph's source (part $k$'s) are charged here rather than in the job's fixed time; each part
 * pays its expected cold start $P_i T_{CS}(b_i)$ before its first task. Both are constants, so the envelope keeps its
 * form.
 *
 * <p>Not thread-safe (it keeps scratch arrays); build one per solving thread.
 */
final class ChoiceCost {
    /** $\sum_{e\,\mathrm{cut}} S_e$: this choice's contribution to $\rho$ per job (Eq. (VI)). */
    final double cutSeconds;
    /** $\sum_{e\,\mathrm{cut}} S_e^2$: its contribution to the numerator of Eq. (VIII) per job. */
    final double cutSquares;
    /** Number of cut edges. */
    final int cutEdges;

    private final int parts;
    private final int rootPart;
    private final int sinkPart;
    private final int[] partOf;
    private final double[] compute;
    /** Per intermediate: its re-entry wait $f p/\nu$ (0 for virtual nodes). */
    private final double[] reentry;
    /** Per intermediate: its entry wait $W$ (0 for virtual nodes). */
    private final double[] entry;
    /** The sink's re-entry wait and the entry wait it pays after a remote input (0 for a virtual sink). */
    private final double sinkReentry;
    private final double sinkEntry;
    private final double[] rootInS;
    private final int[] rootInN;
    private final double[] outS;
    private final int[] outN;
    private final int[] predStart;
    private final int[] predIdx;
    private final double[] predS;
    private final double directS;
    private final int directN;
    private final double[] clock;
    private final double[] finish;
    /** The delay as an upper envelope $\max_n (A_n + n\phi)$: intercepts, and slopes (numbers of cut edges on a path). */
    private final double[] envelopeA;
    private final int[] envelopeN;
    private final ServerWaits envelopeWaits;
    /** The remote parts' wait under the controller's mapping, or null (no fork&ndash;join term). */
    private final PooledWait forkWait;
    /** The deterministic branch's envelope (root part, direct edge) when {@link #forkWait} is set. */
    private final double[] detA;
    private final int[] detN;
    /** The remote parts' envelopes, part r's in {@code [remoteStart[r], remoteStart[r+1])}. */
    private final int[] remoteStart;
    private final double[] remoteA;
    private final int[] remoteN;
    private final double[] remoteAt;
    private final double[] maxScratch;
    /**
     * The delay a remote part causes the request whose chain holds its server (probability $P$ of the fork wait): that
     * chain's tasks alternate with the part's, so it waits about the part's work; charged to this choice so that the
     * objective $\sum_j \beta_j \tau_j$ counts it.
     */
    private final double externality;
    /**
     * Per part: its expected cold start $P_i\,T_{CS}(b_i)$, paid before its first task (null: no cold starts). A
     * choice without parts pays its one part's in {@link #tail}.
     */
    private final double[] cold;
    /**
     * Seconds added to the delay whatever $\phi$: under per-class speeds the sink's compute at part $l$'s speed and,
     * in a job's first subgraph, the source's at part $k$'s (else they are in the job's fixed time), and the cold start
     * of a choice without parts; 0 otherwise.
     */
    private final double tail;

    /** Whether it was compiled from a triplet with this structure (part of each intermediate, root part, sink part). */
    boolean sameStructure(int[] otherPartOf, Triplet t) {
        return parts == t.parts().size() && rootPart == t.rootPart() && sinkPart == t.sinkPart()
                && Arrays.equals(partOf, otherPartOf);
    }

    private ChoiceCost(Builder b) {
        this.rootPart = b.rootPart;
        this.sinkPart = b.sinkPart;
        this.parts = b.parts;
        this.partOf = b.partOf;
        this.compute = b.compute;
        this.reentry = b.reentry;
        this.entry = b.entry;
        this.sinkReentry = b.sinkReentry;
        this.sinkEntry = b.sinkEntry;
        this.rootInS = b.rootInS;
        this.rootInN = b.rootInN;
        this.outS = b.outS;
        this.outN = b.outN;
        this.predStart = b.predStart;
        this.predIdx = b.predIdx;
        this.predS = b.predS;
        this.directS = b.directS;
        this.directN = b.directN;
        this.cutSeconds = b.cutSeconds;
        this.cutSquares = b.cutSquares;
        this.cutEdges = b.cutEdges;
        this.cold = b.cold;
        this.tail = b.tail;
        this.clock = new double[parts];
        this.finish = new double[partOf.length];
        this.envelopeWaits = b.waits;
        Envelope env = new Envelope(this);
        this.envelopeA = env.a;
        this.envelopeN = env.n;
        this.forkWait = b.forkWait;
        if (forkWait != null) {
            double[] det = env.base.clone();
            List<double[]> remotes = new ArrayList<>();
            for (int i = 0; i < parts; i++) {
                if (i == rootPart) {
                    for (int j = 0; j < det.length; j++) {
                        det[j] = Math.max(det[j], env.part[i][j]);
                    }
                } else {
                    remotes.add(env.part[i]);
                }
            }
            Envelope.Reduced d = Envelope.reduce(det);
            detA = d.a();
            detN = d.n();
            remoteStart = new int[remotes.size() + 1];
            double[] ra = new double[remotes.size() * det.length];
            int[] rn = new int[ra.length];
            for (int r = 0; r < remotes.size(); r++) {
                Envelope.Reduced e = Envelope.reduce(remotes.get(r));
                System.arraycopy(e.a(), 0, ra, remoteStart[r], e.a().length);
                System.arraycopy(e.n(), 0, rn, remoteStart[r], e.n().length);
                remoteStart[r + 1] = remoteStart[r] + e.a().length;
            }
            remoteA = Arrays.copyOf(ra, remoteStart[remotes.size()]);
            remoteN = Arrays.copyOf(rn, remoteA.length);
            remoteAt = new double[remotes.size()];
            maxScratch = new double[remotes.size() + 1];
            double remoteWork = 0;
            for (int t = 0; t < partOf.length; t++) {
                if (partOf[t] != rootPart) {
                    remoteWork += compute[t];
                }
            }
            externality = forkWait.probability() * remoteWork;
        } else {
            externality = 0;
            detA = null;
            detN = null;
            remoteStart = null;
            remoteA = null;
            remoteN = null;
            remoteAt = null;
            maxScratch = null;
        }
    }

    private static double envelopeAt(double[] a, int[] n, int from, int to, double phi) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = from; i < to; i++) {
            max = Math.max(max, a[i] + n[i] * phi);
        }
        return max;
    }

    /**
     * The same value as {@link #delay(double, ServerWaits)} at the waits given at compile time, from the precomputed
     * envelope: $O(\text{cut edges})$ and no scratch state.
     */
    double delay(double phi) {
        if (forkWait != null) {
            int remotes = remoteAt.length;
            for (int r = 0; r < remotes; r++) {
                remoteAt[r] = envelopeAt(remoteA, remoteN, remoteStart[r], remoteStart[r + 1], phi);
            }
            return externality + PooledServers.expectedMax(Math.max(0, envelopeAt(detA, detN, 0, detA.length, phi)), remoteAt,
                    remotes, forkWait, maxScratch) + tail;
        }
        double max = 0;
        for (int i = 0; i < envelopeA.length; i++) {
            max = Math.max(max, envelopeA[i] + envelopeN[i] * phi);
        }
        return max + tail;
    }

    /** Whether this choice costs exactly the same as {@code o} for every $\phi$ (same traffic, same envelope). */
    boolean sameCost(ChoiceCost o) {
        return this == o || cutSeconds == o.cutSeconds && cutSquares == o.cutSquares
                && Arrays.equals(envelopeA, o.envelopeA) && Arrays.equals(envelopeN, o.envelopeN)
                && Objects.equals(forkWait, o.forkWait) && externality == o.externality && Arrays.equals(detA, o.detA)
                && Arrays.equals(detN, o.detN) && Arrays.equals(remoteStart, o.remoteStart)
                && Arrays.equals(remoteA, o.remoteA) && Arrays.equals(remoteN, o.remoteN) && tail == o.tail
                && Arrays.equals(cold, o.cold);
    }

    /** The server waits the envelope was compiled for. */
    ServerWaits compiledServerWaits() {
        return envelopeWaits;
    }

    /**
     * The dynamic program of {@link #delay(double, ServerWaits)} in max-plus algebra over vectors indexed by the number
     * of cut edges on a path, so the delay becomes an explicit upper envelope of affine functions of $\phi$.
     */
    private static final class Envelope {
        final double[] a;
        final int[] n;
        /** Per part: when its outputs are at the sink (incl. the sink's waits), by number of cut edges on the path. */
        final double[][] part;
        /** The sink's own re-entry and the direct root-to-sink edge, by number of cut edges. */
        final double[] base;

        record Reduced(double[] a, int[] n) {}

        Envelope(ChoiceCost c) {
            int k = c.cutEdges + 1;
            double[][] clock = new double[c.parts][];
            double[][] finish = new double[c.partOf.length][];
            boolean[] entered = new boolean[c.parts];
            for (int i = 0; i < c.parts; i++) {
                clock[i] = empty(k);
                clock[i][c.rootInN[i]] = c.cold == null ? c.rootInS[i] : c.rootInS[i] + c.cold[i];
                entered[i] = i == c.rootPart;
            }
            for (int t = 0; t < c.partOf.length; t++) {
                int p = c.partOf[t];
                double[] ready = clock[p].clone();
                double own = entered[p] ? c.reentry[t] : c.entry[t];
                for (int j = 0; j < k; j++) {
                    ready[j] += own;
                }
                for (int q = c.predStart[t]; q < c.predStart[t + 1]; q++) {
                    double[] f = finish[c.predIdx[q]];
                    for (int j = 0; j + 1 < k; j++) {
                        ready[j + 1] = Math.max(ready[j + 1], f[j] + c.predS[q] + c.entry[t]);
                    }
                }
                for (int j = 0; j < k; j++) {
                    ready[j] += c.compute[t];
                }
                entered[p] = true;
                clock[p] = ready;
                finish[t] = ready;
            }
            double[] total = empty(k);
            total[0] = c.sinkReentry;
            if (c.directN > 0) {
                total[1] = Math.max(total[1], c.directS + c.sinkEntry);
            }
            base = total.clone();
            part = new double[c.parts][];
            for (int i = 0; i < c.parts; i++) {
                part[i] = empty(k);
                double add = c.outS[i] + (i == c.sinkPart ? c.sinkReentry : c.outN[i] > 0 ? c.sinkEntry : 0);
                for (int j = 0; j + c.outN[i] < k; j++) {
                    part[i][j + c.outN[i]] = clock[i][j] + add;
                    total[j + c.outN[i]] = Math.max(total[j + c.outN[i]], clock[i][j] + add);
                }
            }
            Reduced r = reduce(total);
            a = r.a();
            n = r.n();
        }

        /** Keeps only slopes not dominated by a larger slope with a larger intercept ($\phi \ge 0$). */
        static Reduced reduce(double[] total) {
            int k = total.length;
            int kept = 0;
            double[] ka = new double[k];
            int[] kn = new int[k];
            double best = Double.NEGATIVE_INFINITY;
            for (int j = k - 1; j >= 0; j--) {
                if (total[j] > best) {
                    best = total[j];
                    ka[kept] = total[j];
                    kn[kept++] = j;
                }
            }
            return new Reduced(Arrays.copyOf(ka, kept), Arrays.copyOf(kn, kept));
        }

        private static double[] empty(int k) {
            double[] v = new double[k];
            Arrays.fill(v, Double.NEGATIVE_INFINITY);
            return v;
        }
    }

    /**
     * Implements Eqs. (X)&ndash;(XI) of Nona for one triplet (generalised as the class comment says): the time from
     * the root's completion until the sink can start, $\max_i \chi_{t,k,l}[(\pi,\pi_i)]$.
     *
     * <p>Reads the waits through the per-task arrays compiled for {@link #compiledServerWaits()}; {@code waits}
     * must be those (kept as a parameter so that tests state which waits they check).
     *
     * @param phi   the link wait $\phi$ (s), $\ge 0$
     * @param waits the server waits, {@link ServerWaits#NONE} in the paper's formulation
     */
    double delay(double phi, ServerWaits waits) {
        if (!waits.equals(envelopeWaits)) {
            throw new IllegalArgumentException("server waits (" + waits + ") differ from the compiled ones (" + envelopeWaits + ")");
        }
        boolean[] entered = new boolean[parts];
        for (int i = 0; i < parts; i++) {
            clock[i] = rootInS[i] + rootInN[i] * phi + (cold == null ? 0 : cold[i]);
            entered[i] = i == rootPart;
        }
        for (int t = 0; t < partOf.length; t++) {
            int p = partOf[t];
            double ready = clock[p] + (entered[p] ? reentry[t] : entry[t]);
            for (int q = predStart[t]; q < predStart[t + 1]; q++) {
                ready = Math.max(ready, finish[predIdx[q]] + phi + predS[q] + entry[t]);
            }
            entered[p] = true;
            clock[p] = ready + compute[t];
            finish[t] = clock[p];
        }
        double max = Math.max(sinkReentry, directN > 0 ? directS + directN * phi + sinkEntry : 0);
        for (int i = 0; i < parts; i++) {
            double wait = i == sinkPart ? sinkReentry : outN[i] > 0 ? sinkEntry : 0;
            max = Math.max(max, clock[i] + outS[i] + outN[i] * phi + wait);
        }
        return max + tail;
    }

    /** Compiles a triplet of a subgraph with the server waits the envelope includes. */
    static ChoiceCost compile(Subgraph sg, Triplet triplet, Map<String, ContractedNode> nodes, double nu, double mu, ServerWaits waits) {
        return compile(new SubgraphShape(sg, nodes, nu, mu), triplet, waits);
    }

    /** Compiles a triplet of a subgraph shape; non-finite waits (overloaded servers) are compiled as none. */
    static ChoiceCost compile(SubgraphShape shape, Triplet triplet, ServerWaits waits) {
        return compile(shape, triplet, waits, null);
    }

    /**
     * Compiles a triplet with the fork&ndash;join wait {@code forkWait} of its remote parts (the controller's mapping;
     * null: none, finite otherwise).
     */
    static ChoiceCost compile(SubgraphShape shape, Triplet triplet, ServerWaits waits, PooledWait forkWait) {
        return compile(shape, triplet, waits, forkWait, null, null);
    }

    /**
     * Compiles a triplet with per-part speeds and cold starts (beyond the paper; docs/optimizer.md, "Heterogeneous
     * servers").
     *
     * @param partSpeed per part (one entry when there are none): the effective speed $\nu_{F(b_i)}$ of the classes
     *                  that hold it, at which its tasks, the sink (part $l$) and a first subgraph's source (part $k$)
     *                  compute; null: every task at the shape's $\bar\nu$, sink and source in the job's fixed time
     * @param partCold  per part (same length): its expected cold start $P_i\,T_{CS}(b_i)$, or null for none
     */
    static ChoiceCost compile(SubgraphShape shape, Triplet triplet, ServerWaits waits, PooledWait forkWait,
                              double[] partSpeed, double[] partCold) {
        Builder b = new Builder(shape, triplet);
        b.forkWait = forkWait == null || forkWait.mean() == 0 ? null : forkWait;
        b.waits = waits.finite() ? waits : ServerWaits.NONE;
        int m = shape.compute.length;
        double sinkCompute = shape.sinkCompute;
        if (partSpeed != null) {
            b.compute = new double[m];
            for (int t = 0; t < m; t++) {
                b.compute[t] = shape.ops[t] / partSpeed[b.partOf[t]];
            }
            sinkCompute = shape.sinkOps / partSpeed[triplet.sinkPart()];
            b.tail = sinkCompute + shape.sourceOps / partSpeed[triplet.rootPart()];
        }
        if (partCold != null) {
            b.cold = b.parts > 0 ? partCold : null;
            if (b.parts == 0) {
                b.tail += partCold[0];
            }
        }
        b.reentry = new double[m];
        b.entry = new double[m];
        for (int t = 0; t < m; t++) {
            if (shape.real[t]) {
                b.reentry[t] = b.waits.reentry(b.compute[t]);
                b.entry[t] = b.waits.entry();
            }
        }
        if (shape.sinkReal) {
            b.sinkReentry = b.waits.reentry(sinkCompute);
            b.sinkEntry = b.waits.entry();
        }
        if (b.forkWait != null) {
            // the controller's mapping: the root part and a sink with it run on the request's own server, which the
            // ledger keeps free of other requests while the request holds work there: no wait; a remote part's first
            // task waits Y (random, in the fork-join), its further tasks and a sink on it re-enter (f s, in waits)
            for (int t = 0; t < m; t++) {
                b.entry[t] = 0;
                if (b.partOf[t] == b.rootPart) {
                    b.reentry[t] = 0;
                }
            }
            b.sinkEntry = 0;
            if (b.sinkPart == b.rootPart) {
                b.sinkReentry = 0;
            }
        }
        return new ChoiceCost(b);
    }

    private static final class Builder {
        int parts;
        int[] partOf;
        double[] compute;
        double[] rootInS;
        int[] rootInN;
        double[] outS;
        int[] outN;
        int[] predStart;
        int[] predIdx;
        double[] predS;
        double directS;
        int directN;
        double cutSeconds;
        double cutSquares;
        int cutEdges;
        ServerWaits waits;
        PooledWait forkWait;
        double[] reentry;
        double[] entry;
        double sinkReentry;
        double sinkEntry;
        int rootPart;
        int sinkPart;
        double[] cold;
        double tail;

        Builder(SubgraphShape shape, Triplet triplet) {
            rootPart = triplet.rootPart();
            sinkPart = triplet.sinkPart();
            int m = shape.compute.length;
            parts = triplet.parts().size();
            partOf = shape.partOf(triplet);
            compute = shape.compute;
            rootInS = new double[parts];
            rootInN = new int[parts];
            outS = new double[parts];
            outN = new int[parts];
            int k = triplet.rootPart();
            int l = triplet.sinkPart();
            int[] predCount = new int[m + 1];
            int n = shape.from.length;
            boolean[] cut = new boolean[n];
            for (int e = 0; e < n; e++) {
                int from = shape.from[e];
                int to = shape.to[e];
                double s = shape.s[e];
                if (from == SubgraphShape.ROOT && to == SubgraphShape.SINK) {
                    cut[e] = parts > 0 && k != l;
                    if (cut[e]) {
                        directS = Math.max(directS, s);
                        directN = 1;
                    }
                } else if (from == SubgraphShape.ROOT) {
                    cut[e] = partOf[to] != k;
                    if (cut[e]) {
                        rootInS[partOf[to]] += s;
                        rootInN[partOf[to]]++;
                    }
                } else if (to == SubgraphShape.SINK) {
                    cut[e] = partOf[from] != l;
                    if (cut[e]) {
                        outS[partOf[from]] += s;
                        outN[partOf[from]]++;
                    }
                } else {
                    cut[e] = partOf[from] != partOf[to];
                    if (cut[e]) {
                        predCount[to + 1]++;
                    }
                }
                if (cut[e]) {
                    cutSeconds += s;
                    cutSquares += s * s;
                    cutEdges++;
                }
            }
            predStart = new int[m + 1];
            for (int t = 0; t < m; t++) {
                predStart[t + 1] = predStart[t] + predCount[t + 1];
            }
            predIdx = new int[predStart[m]];
            predS = new double[predStart[m]];
            int[] fill = Arrays.copyOf(predStart, m);
            for (int e = 0; e < n; e++) {
                int from = shape.from[e];
                int to = shape.to[e];
                if (cut[e] && from >= 0 && to >= 0) {
                    predIdx[fill[to]] = from;
                    predS[fill[to]++] = shape.s[e];
                }
            }
        }
    }
}
