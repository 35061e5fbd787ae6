package dev.nona.sim.policy.expert;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimConfig;
import dev.nona.sim.engine.Simulator;
import dev.nona.sim.policy.table.ServerMapping;
import dev.nona.sim.policy.table.SimChoice;
import dev.nona.sim.policy.table.SubgraphTable;
import dev.nona.sim.policy.table.TablePolicy;
import dev.nona.sim.policy.table.WorkloadTableSolver;
import dev.nona.sim.policy.table.SimTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Expert's table, found by simulation instead of by hand: a coordinate search over the per-subgraph
 * distributions $\theta_t$, each candidate scored by the mean JCT of all jobs in a short simulation that uses
 * the same seed for every candidate (common random numbers, so differences are not arrival noise). Candidates are
 * scored under the server mapping the table will be deployed with: Nona's uniform rule for the paper's Expert
 * ({@link #ExpertSearch(Settings, Consumer)}), the live queues for {@code expert-jsq} ({@link #withLiveMapping}).
 *
 * <p><b>The shortlist.</b> Options per subgraph are the triplets of $\Omega_t$ on the Pareto front of (link time,
 * unloaded latency) ({@link SubgraphOptions}): what an expert reasoning about the DAG would shortlist; the live search
 * adds one more option per subgraph, the starting table's own distribution for it (Nona's $\theta_t$, whole as
 * one option). Subgraphs of one class with the same shape (ops and bits, e.g. GPT-2's identical blocks) share one
 * coordinate, so they get the same distribution. For each coordinate in turn (heaviest class first), the search
 * tries every option as a pure strategy, then mixtures $w \cdot a + (1-w) \cdot b$ for
 * $w \in \{0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.95\}$, and keeps the best if it is at least 0.5% better
 * than the incumbent. The paper's Expert mixes only the best pure option $a$ with the runner-up $b$ and makes
 * {@code passes} passes (unchanged, so that the paper's experiments reproduce). The live search is exhaustive over
 * the shortlist coordinate by coordinate: it mixes every pair of options $(a, b)$ and repeats passes until one
 * changes nothing (at most {@link #MAX_PASSES}; the scoring runs are deterministic, so another pass would repeat it).
 * Its result is then a coordinate-wise optimum: no single coordinate's pure option or pairwise mixture on the grid
 * beats it by 0.5% in the scoring run. It is not an exhaustive search over the product of the coordinates
 * (exponential), nor over mixtures of three or more options.
 *
 * <p><b>Starting points.</b> The paper's Expert starts from the front's first option everywhere (the one that cuts
 * least, usually whole), independent of Nona's optimiser. The live search also scores the starting table (e.g.
 * Nona's, which the controller deploys) and starts from the better of the two. Finally a simulation four times
 * longer, with another seed, scores the result and the starting points and keeps the best (short runs can overfit
 * their seed), so the live search never returns a table that its final run scores worse than whole or than the
 * starting table. Cost: about {@code passes} $\cdot \sum (|\text{front}| + 9)$ short simulations (paper), about
 * passes $\cdot \sum (n + 9 n (n-1) / 2)$ for $n$ options per coordinate (live; on {@code examples/zoo.json} at loads
 * 0.3–0.9 one pass of 207, as nothing beats whole there). Not thread-safe.
 */
public final class ExpertSearch implements WorkloadTableSolver {
    /**
     * @param jobs        inference jobs per scoring simulation
     * @param seed        the common seed of every scoring simulation
     * @param passes      passes over the subgraphs (the paper's Expert; the live search passes until one changes nothing)
     * @param optionLimit most triplets enumerated per subgraph before the Pareto filter
     */
    public record Settings(long jobs, long seed, int passes, int optionLimit) {
        public Settings {
            if (jobs < 1 || passes < 1 || optionLimit < 1) {
                throw new IllegalArgumentException("expert search settings must be >= 1: jobs " + jobs + ", passes " + passes + ", optionLimit " + optionLimit);
            }
        }

        public static Settings defaults() {
            return new Settings(6_000, 17, 2, 5_000);
        }
    }

    /** The final check's scores: the table returned and the mean JCT of each candidate in the final, longer run. */
    public record Validation(String kept, Map<String, Double> scores) {
        public Validation {
            scores = Collections.unmodifiableMap(new LinkedHashMap<>(scores));
        }
    }

    /** The live search's passes stop here even if the last one changed something. */
    public static final int MAX_PASSES = 6;
    /** A candidate replaces the incumbent only if it is this much better (guards against chasing noise). */
    private static final double MIN_GAIN = 0.005;
    private static final double[] MIX = {0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.95};
    private final Settings settings;
    private final Consumer<String> progress;
    private final ServerMapping mapping;
    /** The live search's starting table (null: the paper's Expert, whole only). */
    private final WorkloadTableSolver startingTable;
    private final boolean exhaustive;
    private int simulations;
    /** The best short-run score of any candidate in the current pass, kept or not (for the progress line). */
    private double bestSeen;
    private Validation lastValidation;

    /** The paper's Expert: scores under Nona's uniform mapping, starts from whole. */
    public ExpertSearch(Settings settings, Consumer<String> progress) {
        this(settings, progress, ServerMapping.UNIFORM, null, false);
    }

    private ExpertSearch(Settings settings, Consumer<String> progress, ServerMapping mapping, WorkloadTableSolver startingTable,
                         boolean exhaustive) {
        this.settings = Objects.requireNonNull(settings, "expert search settings");
        this.progress = Objects.requireNonNull(progress, "expert search progress");
        this.mapping = Objects.requireNonNull(mapping, "expert search server mapping");
        this.startingTable = startingTable;
        this.exhaustive = exhaustive;
    }

    /**
     * {@code expert-jsq}'s search: scores every candidate under {@link ServerMapping#LIVE_QUEUES}, the mapping the table
     * is deployed with, exhaustively over the shortlist (class comment), from whole and from {@code startingTable}'s
     * table for the same workload (Nona's, or null for whole only).
     */
    public static ExpertSearch withLiveMapping(Settings settings, Consumer<String> progress, WorkloadTableSolver startingTable) {
        return new ExpertSearch(settings, progress, ServerMapping.LIVE_QUEUES, startingTable, true);
    }

    /** The mapping candidates are scored under. */
    public ServerMapping mapping() {
        return mapping;
    }

    /** Scoring simulations run so far. */
    public int simulations() {
        return simulations;
    }

    /** The final check of the last {@link #solve}, or null before the first. */
    public Validation lastValidation() {
        return lastValidation;
    }

    @Override
    public SimTable solve(SimWorkload workload) {
        long startNanos = System.nanoTime();
        int startSimulations = simulations;
        List<SimJobClass> classes = workload.classes();
        SimTable given = startingTable == null ? null : startingTable.solve(workload);
        List<List<List<SubgraphTable>>> options = new ArrayList<>();
        List<List<double[]>> whole = new ArrayList<>();
        List<List<double[]>> fromGiven = new ArrayList<>();
        for (int c = 0; c < classes.size(); c++) {
            SimJobClass jc = classes.get(c);
            List<List<SubgraphTable>> perSg = new ArrayList<>();
            List<double[]> dWhole = new ArrayList<>();
            List<double[]> dGiven = new ArrayList<>();
            boolean aligned = given != null && given.perClass().size() == classes.size() && given.of(c).size() == jc.subgraphs().size();
            for (int g = 0; g < jc.subgraphs().size(); g++) {
                List<SubgraphTable> o = new ArrayList<>();
                for (SimChoice choice : SubgraphOptions.paretoFront(jc, jc.subgraphs().get(g), workload.cluster(), settings.optionLimit())) {
                    o.add(SubgraphTable.pure(choice));
                }
                double[] w = new double[o.size() + (aligned ? 1 : 0)];
                w[0] = 1;
                double[] s = w.clone();
                if (aligned) {
                    o.add(given.of(c).get(g));
                    s[0] = 0;
                    s[o.size() - 1] = 1;
                }
                perSg.add(o);
                dWhole.add(w);
                dGiven.add(s);
            }
            options.add(perSg);
            whole.add(dWhole);
            fromGiven.add(dGiven);
        }
        List<List<double[]>> current = copy(whole);
        double best = score(workload, options, current);
        if (given != null) {
            double givenScore = score(workload, options, fromGiven);
            progress.accept("expert search (" + mapping + "): start whole " + best + " s, starting table " + givenScore + " s");
            if (givenScore < best) {
                current = copy(fromGiven);
                best = givenScore;
            }
        }
        List<int[]> coordinates = coordinates(classes);
        int maxPasses = exhaustive ? MAX_PASSES : settings.passes();
        for (int pass = 0; pass < maxPasses; pass++) {
            double before = best;
            bestSeen = Double.MAX_VALUE;
            for (int[] cg : coordinates) {
                best = improve(workload, options, current, cg, best);
            }
            progress.accept("expert search (" + mapping + "): pass " + (pass + 1) + " mean JCT " + best + " s after " + simulations
                    + " simulations (best candidate " + bestSeen + " s)");
            if (exhaustive && !(best < before)) {
                break; // the scoring runs are deterministic: a pass that changed nothing would repeat itself
            }
        }
        Map<String, SimTable> candidates = new LinkedHashMap<>();
        candidates.put("found", table(options, current));
        candidates.put("whole", table(options, whole));
        if (given != null) {
            candidates.put("starting table", given);
        }
        SimTable kept = validated(workload, candidates);
        progress.accept(String.format(Locale.ROOT, "expert search (%s): solved in %.1f s (starting table included), %d simulations",
                mapping, (System.nanoTime() - startNanos) / 1e9, simulations - startSimulations));
        return kept;
    }

    /**
     * Of {@code candidates} (the searched table first, then the starting points), the one a simulation four times
     * longer, with another seed, scores best (the first on ties): short scoring runs can overfit their one seed.
     */
    private SimTable validated(SimWorkload w, Map<String, SimTable> candidates) {
        long jobs = 4 * settings.jobs();
        Map<String, Double> scores = new LinkedHashMap<>();
        String kept = null;
        for (Map.Entry<String, SimTable> e : candidates.entrySet()) {
            double s = validationScore(w, e.getValue());
            scores.put(e.getKey(), s);
            if (kept == null || s < scores.get(kept)) {
                kept = e.getKey();
            }
        }
        lastValidation = new Validation(kept, scores);
        progress.accept("expert search (" + mapping + "): validation (" + jobs + " jobs) " + scores + ", kept " + kept);
        return candidates.get(kept);
    }

    /** The mean JCT of {@code table} in this search's final check (four times the jobs, the next seed, its mapping). */
    public double validationScore(SimWorkload w, SimTable table) {
        return score(w, table, 4 * settings.jobs(), settings.seed() + 1);
    }

    private static List<List<double[]>> copy(List<List<double[]>> d) {
        List<List<double[]>> out = new ArrayList<>();
        for (List<double[]> perClass : d) {
            List<double[]> c = new ArrayList<>();
            for (double[] x : perClass) {
                c.add(x.clone());
            }
            out.add(c);
        }
        return out;
    }

    private double improve(SimWorkload w, List<List<List<SubgraphTable>>> options, List<List<double[]>> current, int[] cg, double best) {
        int c = cg[0];
        int n = options.get(c).get(cg[1]).size();
        if (n < 2) {
            return best;
        }
        double[] incumbent = current.get(c).get(cg[1]);
        double[] pureScore = new double[n];
        for (int o = 0; o < n; o++) {
            double[] d = new double[n];
            d[o] = 1;
            set(current, cg, d);
            pureScore[o] = score(w, options, current);
        }
        Integer[] rank = new Integer[n];
        for (int i = 0; i < n; i++) {
            rank[i] = i;
        }
        Arrays.sort(rank, Comparator.comparingDouble(i -> pureScore[i]));
        double[] bestDist = incumbent;
        if (pureScore[rank[0]] < best * (1 - MIN_GAIN)) {
            best = pureScore[rank[0]];
            bestDist = new double[n];
            bestDist[rank[0]] = 1;
        }
        // the paper's Expert: the best pure option with the runner-up; the live search: every pair, better pure first
        int firsts = exhaustive ? n - 1 : 1;
        for (int i = 0; i < firsts; i++) {
            for (int j = i + 1; j < (exhaustive ? n : 2); j++) {
                for (double m : MIX) {
                    double[] d = new double[n];
                    d[rank[i]] += m;
                    d[rank[j]] += 1 - m;
                    set(current, cg, d);
                    double s = score(w, options, current);
                    if (s < best * (1 - MIN_GAIN)) {
                        best = s;
                        bestDist = d;
                    }
                }
            }
        }
        set(current, cg, bestDist);
        return best;
    }

    /** Sets the distribution of every subgraph of the coordinate {@code {class, g1, g2, ...}}. */
    private static void set(List<List<double[]>> current, int[] cg, double[] d) {
        for (int i = 1; i < cg.length; i++) {
            current.get(cg[0]).set(cg[i], d);
        }
    }

    private double score(SimWorkload w, List<List<List<SubgraphTable>>> options, List<List<double[]>> current) {
        return score(w, table(options, current), settings.jobs(), settings.seed());
    }

    private double score(SimWorkload w, SimTable table, long jobs, long seed) {
        simulations++;
        TablePolicy policy = new TablePolicy(table, new SplittableRandom(seed), mapping);
        SimConfig config = new SimConfig(jobs, jobs / 5, seed, 200_000_000L);
        double mean = new Simulator(w, policy, "expert-candidate", config).run().meanJctSeconds();
        double s = Double.isNaN(mean) ? Double.MAX_VALUE : mean;
        bestSeen = Math.min(bestSeen, s);
        return s;
    }

    /** One coordinate {@code {class, subgraph...}} per class and subgraph shape, heaviest class first. */
    private static List<int[]> coordinates(List<SimJobClass> classes) {
        List<int[]> out = new ArrayList<>();
        for (int c = 0; c < classes.size(); c++) {
            SimJobClass jc = classes.get(c);
            Map<String, List<Integer>> byShape = new LinkedHashMap<>();
            for (int g = 0; g < jc.subgraphs().size(); g++) {
                byShape.computeIfAbsent(shape(jc, jc.subgraphs().get(g)), k -> new ArrayList<>()).add(g);
            }
            for (List<Integer> gs : byShape.values()) {
                int[] cg = new int[gs.size() + 1];
                cg[0] = c;
                for (int i = 0; i < gs.size(); i++) {
                    cg[i + 1] = gs.get(i);
                }
                out.add(cg);
            }
        }
        out.sort(Comparator.comparingDouble(cg -> -classes.get(cg[0]).ratePerSecond() * classes.get(cg[0]).totalOps()));
        return out;
    }

    /** The subgraph's intermediates' ops and its edges' bits, in positions relative to the subgraph. */
    private static String shape(SimJobClass c, SimSubgraph sg) {
        Map<Integer, Integer> pos = new HashMap<>();
        pos.put(sg.root(), -1);
        pos.put(sg.sink(), -2);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sg.size(); i++) {
            pos.put(sg.intermediate(i), i);
            b.append(c.taskOps(sg.intermediate(i))).append(',');
        }
        for (int e = 0; e < c.edges(); e++) {
            Integer f = pos.get(c.edgeFrom(e));
            Integer t = pos.get(c.edgeTo(e));
            if (f != null && t != null) {
                b.append(';').append(f).append('>').append(t).append(':').append(c.edgeBits(e));
            }
        }
        return b.toString();
    }

    /** The table that gives each subgraph's options the weights {@code current}: option $i$'s choices, each times $w_i$. */
    private static SimTable table(List<List<List<SubgraphTable>>> options, List<List<double[]>> current) {
        List<List<SubgraphTable>> perClass = new ArrayList<>();
        List<Double> predicted = new ArrayList<>();
        for (int c = 0; c < options.size(); c++) {
            List<SubgraphTable> subgraphTables = new ArrayList<>();
            for (int g = 0; g < options.get(c).size(); g++) {
                double[] weight = current.get(c).get(g);
                List<SimChoice> choices = new ArrayList<>();
                List<Double> p = new ArrayList<>();
                for (int i = 0; i < weight.length; i++) {
                    SubgraphTable option = options.get(c).get(g).get(i);
                    for (int k = 0; k < option.choices().size(); k++) {
                        choices.add(option.choices().get(k));
                        p.add(weight[i] * option.probability(k));
                    }
                }
                subgraphTables.add(new SubgraphTable(choices, p.stream().mapToDouble(Double::doubleValue).toArray()));
            }
            perClass.add(subgraphTables);
            predicted.add(Double.NaN);
        }
        return new SimTable(perClass, predicted);
    }
}
