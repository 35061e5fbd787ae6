package dev.nona.optimize;

import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import dev.nona.workload.Cluster;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Which choices a cluster's memory admits (beyond the Nona paper, which has no memory). A <em>part</em> of a choice
 * holds the weights of its tasks: its intermediates, the subgraph's sink for the sink's part $l$, and the job's source
 * for the root's part $k$ of the job's first subgraph (so each task of a request is counted in exactly one part; a
 * choice without intermediates has one part, the sink's). A part's footprint $b$ is the sum of its tasks' bytes; it
 * fits class $c$ when $b \le M_c$. A choice is admissible when it needs at most $N$ servers and its parts can be put
 * on distinct servers that hold them: with $n(b)$ the servers whose memory holds $b$, the sets are nested (a server
 * that holds a larger part holds a smaller one), so by Hall's theorem that is
 * $$n(b_{(1)}) \ge 1,\ n(b_{(2)}) \ge 2,\ \dots \quad (b_{(1)} \ge b_{(2)} \ge \dots \text{ the parts by size}).$$
 *
 * <p>With unbounded memory (every class {@link ServerClass#UNBOUNDED}) every choice fits and nothing here changes the
 * paper's problem. Thread-safe.
 */
public final class PartFit {
    /** Memory levels ascending (distinct class memories) and the servers whose memory is at least each. */
    private final double[] levels;
    private final int[] serversAtLeast;
    private final boolean unbounded;
    private final Cluster cluster;
    /** The latest model asked for {@link #chainBudgets}, and its budgets (callers ask model by model). */
    private volatile Chain last;

    private PartFit(Cluster cluster) {
        this.cluster = cluster;
        this.unbounded = !cluster.memoryBounded();
        levels = cluster.memoryLevels();
        serversAtLeast = new int[levels.length];
        for (int i = 0; i < levels.length; i++) {
            serversAtLeast[i] = cluster.serversWithMemoryAtLeast(levels[i]);
        }
    }

    /** The memory rule of {@code cluster}. */
    public static PartFit of(Cluster cluster) {
        return new PartFit(cluster);
    }

    /** Whether every part fits every server (no class's memory is modelled). */
    public boolean unbounded() {
        return unbounded;
    }

    /** The largest server memory $\max_c M_c$ ($+\infty$ when unbounded). */
    public double largestMemory() {
        return levels[levels.length - 1];
    }

    /**
     * The memory level of a part of {@code bytes}: the index of the smallest class memory that holds it (its feasible
     * classes are those with at least that memory), or -1 when no server holds it.
     */
    public int level(double bytes) {
        int i = Arrays.binarySearch(levels, bytes);
        if (i < 0) {
            i = -i - 1;
        }
        return i < levels.length ? i : -1;
    }

    /** The number of memory levels (distinct class memories). */
    public int levels() {
        return levels.length;
    }

    /** The classes whose memory is at least level {@code level}'s: a part of that level's feasible classes. */
    public List<ServerClass> classesAt(int level) {
        return cluster.classes().stream().filter(c -> c.memoryBytes() >= levels[level]).toList();
    }

    /** $n(b)$: the servers whose memory holds a part of {@code bytes}. */
    public int serversFitting(double bytes) {
        int level = level(bytes);
        return level < 0 ? 0 : serversAtLeast[level];
    }

    /** Whether parts of these footprints can go to distinct servers that hold them (Hall's condition above). */
    public boolean fits(double[] partBytes) {
        if (unbounded) {
            return true;
        }
        if (partBytes.length == 1) {
            return partBytes[0] <= largestMemory();
        }
        int[] n = new int[partBytes.length];
        for (int i = 0; i < n.length; i++) {
            n[i] = serversFitting(partBytes[i]);
        }
        Arrays.sort(n);
        for (int i = 0; i < n.length; i++) {
            if (n[i] < i + 1) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the cluster can run choice {@code t} of subgraph {@code subgraph} of {@code job}: at most $N$ servers
     * ({@link SubgraphChoices#serversNeeded}) and parts that fit. The rule {@link NonaOptimizer} applies; a table's
     * carry-over must use the same to index $\theta$ over the admissible choices.
     */
    public boolean admissible(JobClass job, int subgraph, Triplet t) {
        return admissible(job, subgraph, t, x -> partBytes(job, subgraph, x));
    }

    /**
     * {@link #admissible(JobClass, int, Triplet)} with the footprint of each part of {@code t} given by
     * {@code partBytes} (the same as {@link #partBytes}; asked only when memory bounds the cluster), for a caller that
     * sums it faster. For a model larger than every server, also within its {@link #chainBudgets chain budgets}.
     */
    public boolean admissible(JobClass job, int subgraph, Triplet t, Function<Triplet, double[]> partBytes) {
        if (!fitsAlone(t, partBytes)) {
            return false;
        }
        double[] a = unbounded ? null : chainBudgets(job);
        return a == null || chained(a, subgraph, t, partBytes.apply(t));
    }

    /** The rule for one subgraph alone: at most $N$ servers, and parts that fit (Hall's condition). */
    private boolean fitsAlone(Triplet t, Function<Triplet, double[]> partBytes) {
        return SubgraphChoices.serversNeeded(t) <= cluster.servers() && (unbounded || fits(partBytes.apply(t)));
    }

    /**
     * The chain budgets $a_0, \dots, a_G$ of a model of $G$ subgraphs larger than every server (its total bytes above
     * the largest memory $M$), or null when it is not (any server that holds a part's chain holds it: nothing more
     * to check). Computed once per model.
     *
     * <p>Why: a request's subgraphs run one after another, and the sink's part $l$ of subgraph $g$ is the server of
     * the root's part $k$ of subgraph $g+1$ (the sampler's slots). A server therefore holds a <em>chain</em>: the sink's
     * part of a subgraph (or the source), then for each following subgraph whose choice keeps its sink with its root
     * ($k = l$, a <em>pass</em>) that whole part, and last the root's part of the first subgraph that does not. Each
     * subgraph's parts fitting alone does not make its chain fit: a model whose every subgraph runs whole on one
     * server runs whole there. Subgraphs are drawn independently, so the rule must hold for every combination of the
     * choices the table may draw: with $R$ the root's part's bytes and $S$ the sink's part's, a choice of subgraph $g$
     * is admissible when
     * $$k = l:\ a_g + R \le a_{g+1}, \qquad k \ne l:\ R \le M - a_g \ \text{and}\ S \le a_{g+1},$$
     * with $a_0 = 0$ and $a_G = M$. Then a chain that starts at boundary $g_0$ carries at most $a_{g_0}$ bytes, each
     * pass adds at most its boundaries' difference, and it ends with a root part of at most $M$ less what it carries,
     * or at the last sink within $a_G = M$: every chain fits $M$ ({@code PartFitTest} checks each combination).
     *
     * <p>The budgets are chosen one boundary at a time, $a_{g+1}$ among the values that admit a choice of subgraph
     * $g$, the one that admits most choices of $g$ and of the root side of $g+1$ (ties: the least, leaving the most
     * to $g+1$); $O(C \log C)$ per subgraph of $C$ choices.
     */
    double[] chainBudgets(JobClass job) {
        if (unbounded) {
            return null;
        }
        Chain c = last;
        if (c == null || c.job != job) {
            c = new Chain(job, job.totalBytes() > largestMemory() ? budgets(job) : null);
            last = c;
        }
        return c.budgets;
    }

    /** A model and its {@link #chainBudgets} (null: none needed). */
    private record Chain(JobClass job, double[] budgets) {}

    /** {@link #chainBudgets} computed: boundary by boundary, as its comment says. */
    private double[] budgets(JobClass job) {
        int g = job.subgraphs().size();
        double m = largestMemory();
        double[] a = new double[g + 1];
        a[g] = m;
        if (g == 0) {
            return a;
        }
        List<double[]> next = ends(job, 0); // per choice of subgraph 0 that fits alone: {R, S, pass ? 1 : 0}
        for (int s = 0; s + 1 < g; s++) {
            List<double[]> here = next;
            next = ends(job, s + 1);
            double[] roots = next.stream().mapToDouble(e -> e[0]).sorted().toArray();
            List<Double> candidates = new ArrayList<>();
            List<Double> passes = new ArrayList<>();
            List<Double> sinks = new ArrayList<>();
            for (double[] e : here) {
                if (e[2] == 1) {
                    double v = a[s] + e[0];
                    if (v <= m) {
                        candidates.add(v);
                        passes.add(v);
                    }
                } else if (e[0] <= m - a[s]) {
                    candidates.add(e[1]);
                    sinks.add(e[1]);
                }
            }
            double[] passAt = passes.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double[] sinkAt = sinks.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double best = m;
            long bestScore = -1;
            for (double v : candidates) {
                int mine = atMost(passAt, v) + atMost(sinkAt, v);
                int theirs = atMost(roots, m - v);
                long score = (theirs > 0 ? 1L << 40 : 0) + mine + theirs;
                if (score > bestScore || score == bestScore && v < best) {
                    best = v;
                    bestScore = score;
                }
            }
            a[s + 1] = best;
        }
        return a;
    }

    /** Per choice of subgraph {@code s} of {@code job} that fits alone: its root part's bytes, sink part's, and pass. */
    private List<double[]> ends(JobClass job, int s) {
        List<double[]> out = new ArrayList<>();
        for (Triplet t : job.subgraphs().get(s).triplets()) {
            Function<Triplet, double[]> bytes = x -> partBytes(job, s, x);
            if (fitsAlone(t, bytes)) {
                double[] b = bytes.apply(t);
                boolean pass = t.rootPart() == t.sinkPart();
                out.add(new double[] {b[t.rootPart()], pass ? 0 : b[t.sinkPart()], pass ? 1 : 0});
            }
        }
        return out;
    }

    /** How many of the ascending {@code sorted} are at most {@code v}. */
    private static int atMost(double[] sorted, double v) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Whether choice {@code t} of subgraph {@code g}, of part footprints {@code b}, keeps within budgets {@code a}. */
    static boolean chained(double[] a, int g, Triplet t, double[] b) {
        double r = b[t.rootPart()];
        if (t.rootPart() == t.sinkPart()) {
            return a[g] + r <= a[g + 1];
        }
        return r <= a[a.length - 1] - a[g] && b[t.sinkPart()] <= a[g + 1];
    }

    /**
     * The footprint of each part of choice {@code t} of subgraph {@code subgraph} of {@code job} (class comment): one
     * entry per part, one when the choice has none.
     */
    public static double[] partBytes(JobClass job, int subgraph, Triplet t) {
        Subgraph sg = job.subgraphs().get(subgraph).subgraph();
        double[] b = new double[Math.max(1, t.parts().size())];
        for (int i = 0; i < t.parts().size(); i++) {
            for (String id : t.parts().get(i)) {
                b[i] += job.nodeBytes(id);
            }
        }
        b[t.sinkPart()] += job.nodeBytes(sg.sink());
        if (subgraph == 0) {
            b[t.rootPart()] += job.nodeBytes(job.source());
        }
        return b;
    }

    /**
     * Choices that fit when none of the enumerated ones does (an enumeration bound keeps pieces whole that are too
     * large for any server): the intermediates in topological order are packed into consecutive parts of at most a
     * capacity, then every root part $k$ and sink part $l$ that fits is kept. The capacities tried, in order: the
     * largest memory less the sink's and (first subgraph) the source's bytes, so that both fit any part; less the
     * sink's only; less the source's only; the largest memory. Empty when no packing gives an admissible choice.
     */
    List<Triplet> packed(JobClass job, int subgraph) {
        Subgraph sg = job.subgraphs().get(subgraph).subgraph();
        if (sg.intermediates().isEmpty() || unbounded) {
            return List.of();
        }
        double sink = job.nodeBytes(sg.sink());
        double source = subgraph == 0 ? job.nodeBytes(job.source()) : 0;
        double m = largestMemory();
        for (double capacity : new double[] {m - sink - source, m - sink, m - source, m}) {
            List<Triplet> out = packed(job, subgraph, sg, capacity);
            if (!out.isEmpty()) {
                return out;
            }
        }
        return List.of();
    }

    private List<Triplet> packed(JobClass job, int subgraph, Subgraph sg, double capacity) {
        List<List<String>> parts = new ArrayList<>();
        List<String> current = new ArrayList<>();
        double used = 0;
        for (String id : sg.intermediates()) {
            double b = job.nodeBytes(id);
            if (b > capacity) {
                return List.of();
            }
            if (!current.isEmpty() && used + b > capacity) {
                parts.add(List.copyOf(current));
                current.clear();
                used = 0;
            }
            current.add(id);
            used += b;
        }
        parts.add(List.copyOf(current));
        List<List<String>> frozen = List.copyOf(parts);
        List<Triplet> out = new ArrayList<>();
        for (int k = 0; k < frozen.size(); k++) {
            for (int l = 0; l < frozen.size(); l++) {
                Triplet t = new Triplet(frozen, k, l);
                if (fitsAlone(t, x -> partBytes(job, subgraph, x))) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    /**
     * The part of {@code problem} this cluster can run, and the models it cannot. A model is unplaceable when one of
     * its tasks (a contracted node) is larger than every server's memory, or when some subgraph has no admissible
     * choice even after {@link #packed packing}; a subgraph whose enumerated choices all fail but whose packing fits
     * gets the packed choices added. Returns {@code problem} itself when memory is unbounded or nothing changes.
     */
    public Restricted restrict(NonaProblem problem) {
        if (unbounded) {
            return new Restricted(problem, List.of(), List.of());
        }
        List<JobClass> kept = new ArrayList<>();
        List<String> unplaceable = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        boolean changed = false;
        for (JobClass job : problem.jobs()) {
            String why = tooLargeTask(job);
            JobClass fitted = why == null ? withFittingChoices(job) : null;
            if (fitted == null) {
                unplaceable.add(job.name());
                reasons.add(why != null ? why : "model '" + job.name() + "': no grouping of a subgraph fits the servers' memory");
                changed = true;
            } else {
                kept.add(fitted);
                changed |= fitted != job;
            }
        }
        if (!changed) {
            return new Restricted(problem, List.of(), List.of());
        }
        NonaProblem rest = kept.isEmpty() ? null
                : problem.withJobs(kept);
        return new Restricted(rest, unplaceable, reasons);
    }

    private String tooLargeTask(JobClass job) {
        for (var e : job.nodes().entrySet()) {
            double b = job.nodeBytes(e.getKey());
            if (b > largestMemory()) {
                return "model '" + job.name() + "': task '" + e.getKey() + "' (" + b + " bytes) is larger than every server's memory ("
                        + largestMemory() + " bytes at most)";
            }
        }
        return null;
    }

    /**
     * {@code job} itself when every subgraph has an admissible choice, with packed choices added where needed, or null.
     * Packed choices go first to each subgraph of which no choice fits alone; when the model's {@link #chainBudgets}
     * then leave a subgraph without a choice, to every subgraph.
     */
    private JobClass withFittingChoices(JobClass job) {
        JobClass fitted = withPacked(job, false);
        if (fitted == null || chainBudgets(fitted) == null || everySubgraphAdmits(fitted)) {
            return fitted;
        }
        fitted = withPacked(fitted, true);
        return fitted != null && everySubgraphAdmits(fitted) ? fitted : null;
    }

    /** Whether each subgraph of {@code job} has an {@link #admissible} choice. */
    private boolean everySubgraphAdmits(JobClass job) {
        for (int s = 0; s < job.subgraphs().size(); s++) {
            int g = s;
            if (job.subgraphs().get(s).triplets().stream().noneMatch(t -> admissible(job, g, t))) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code job} with {@link #packed} choices added to each subgraph none of whose choices fits alone (to every
     * subgraph: {@code all}), or null when such a subgraph has none.
     */
    private JobClass withPacked(JobClass job, boolean all) {
        List<SubgraphChoices> subgraphs = null;
        for (int s = 0; s < job.subgraphs().size(); s++) {
            SubgraphChoices sc = job.subgraphs().get(s);
            int g = s;
            if (!all && sc.triplets().stream().anyMatch(t -> fitsAlone(t, x -> partBytes(job, g, x)))) {
                continue;
            }
            List<Triplet> packed = packed(job, s);
            if (packed.isEmpty()) {
                if (all) {
                    continue;
                }
                return null;
            }
            if (subgraphs == null) {
                subgraphs = new ArrayList<>(job.subgraphs());
            }
            List<Triplet> merged = new ArrayList<>(sc.triplets());
            packed.stream().filter(t -> !merged.contains(t)).forEach(merged::add);
            subgraphs.set(s, new SubgraphChoices(sc.subgraph(), merged));
        }
        if (job.subgraphs().isEmpty() && job.nodeBytes(job.source()) > largestMemory()) {
            return null;
        }
        return subgraphs == null ? job : job.withSubgraphs(subgraphs);
    }

    /**
     * What {@link #restrict} found.
     *
     * @param placeable   the problem over the models that can run (their choices completed where needed), or null
     *                    when none can
     * @param unplaceable the models that cannot run anywhere, in problem order
     * @param reasons     one line per unplaceable model, same order
     */
    public record Restricted(NonaProblem placeable, List<String> unplaceable, List<String> reasons) {
        public Restricted {
            unplaceable = List.copyOf(unplaceable);
            reasons = List.copyOf(reasons);
        }
    }
}
