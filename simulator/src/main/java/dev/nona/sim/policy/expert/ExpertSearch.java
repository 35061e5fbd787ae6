package dev.nona.sim.policy.expert;

import dev.nona.sim.JobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimConfig;
import dev.nona.sim.engine.Simulator;
import dev.nona.sim.policy.table.SimChoice;
import dev.nona.sim.policy.table.SubgraphTable;
import dev.nona.sim.policy.table.TablePolicy;
import dev.nona.sim.policy.table.TableSolver;
import dev.nona.sim.policy.table.SimTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Expert's table, found by simulation instead of by hand: a coordinate search over the per-subgraph
 * distributions $\theta_t$, each candidate scored by the mean JCT of all jobs in a short simulation that uses
 * the same seed for every candidate (common random numbers, so differences are not arrival noise).
 *
 * <p>Candidates per subgraph are the triplets of $\Omega_t$ on the Pareto front of (link time, unloaded latency)
 * ({@link SubgraphOptions}): what an expert reasoning about the DAG would shortlist. Subgraphs of one class with
 * the same shape (ops and bits, e.g. GPT-2's identical blocks) share one coordinate, so they get the same
 * distribution. The search starts from the front's first option (the one that cuts least: no distribution),
 * independent of Nona's optimiser. For each coordinate in turn (heaviest class first), it tries every
 * candidate as a pure strategy, then mixtures $w \cdot$ best $+ (1-w) \cdot$ runner-up for
 * $w \in \{0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.95\}$, and keeps the best if it is at least 0.5% better;
 * it makes {@code passes} passes. Finally a simulation four times longer, with another seed, checks the result
 * against the starting point and keeps the better (short runs can overfit their seed).
 * Cost: about {@code passes} $\cdot \sum (|\text{front}| + 9)$ short simulations. Not thread-safe.
 */
public final class ExpertSearch implements TableSolver {
    /**
     * @param jobs        inference jobs per scoring simulation
     * @param seed        the common seed of every scoring simulation
     * @param passes      passes over the subgraphs
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

    /** A candidate replaces the incumbent only if it is this much better (guards against chasing noise). */
    private static final double MIN_GAIN = 0.005;
    private static final double[] MIX = {0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.95};
    private final Settings settings;
    private final Consumer<String> progress;
    private int simulations;

    public ExpertSearch(Settings settings, Consumer<String> progress) {
        this.settings = settings;
        this.progress = progress;
    }

    /** Scoring simulations run so far. */
    public int simulations() {
        return simulations;
    }

    @Override
    public SimTable solve(SimWorkload workload) {
        List<JobClass> classes = workload.classes();
        List<List<List<SimChoice>>> options = new ArrayList<>();
        List<List<double[]>> current = new ArrayList<>();
        for (JobClass c : classes) {
            List<List<SimChoice>> perSg = new ArrayList<>();
            List<double[]> dist = new ArrayList<>();
            for (SimSubgraph sg : c.subgraphs()) {
                List<SimChoice> o = SubgraphOptions.paretoFront(c, sg, workload.cluster(), settings.optionLimit());
                perSg.add(o);
                double[] d = new double[o.size()];
                d[0] = 1;
                dist.add(d);
            }
            options.add(perSg);
            current.add(dist);
        }
        List<List<double[]>> start = copy(current);
        double best = score(workload, options, current);
        List<int[]> coordinates = coordinates(classes);
        for (int pass = 0; pass < settings.passes(); pass++) {
            for (int[] cg : coordinates) {
                best = improve(workload, options, current, cg, best);
            }
            progress.accept("expert search: pass " + (pass + 1) + " mean JCT " + best + " s after " + simulations + " simulations");
        }
        return validated(workload, options, start, current);
    }

    /**
     * The searched table if a longer simulation with another seed confirms it beats the starting point (no
     * distribution), else the starting point: short scoring runs can overfit their one seed.
     */
    private SimTable validated(SimWorkload w, List<List<List<SimChoice>>> options, List<List<double[]>> start,
                                 List<List<double[]>> found) {
        long jobs = 4 * settings.jobs();
        double foundScore = score(w, table(options, found), jobs, settings.seed() + 1);
        double startScore = score(w, table(options, start), jobs, settings.seed() + 1);
        progress.accept("expert search: validation (" + jobs + " jobs) found " + foundScore + " s, no distribution " + startScore + " s");
        return foundScore <= startScore ? table(options, found) : table(options, start);
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

    private double improve(SimWorkload w, List<List<List<SimChoice>>> options, List<List<double[]>> current, int[] cg, double best) {
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
        for (double m : MIX) {
            double[] d = new double[n];
            d[rank[0]] += m;
            d[rank[1]] += 1 - m;
            set(current, cg, d);
            double s = score(w, options, current);
            if (s < best * (1 - MIN_GAIN)) {
                best = s;
                bestDist = d;
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

    private double score(SimWorkload w, List<List<List<SimChoice>>> options, List<List<double[]>> current) {
        return score(w, table(options, current), settings.jobs(), settings.seed());
    }

    private double score(SimWorkload w, SimTable table, long jobs, long seed) {
        simulations++;
        TablePolicy policy = new TablePolicy(table, new SplittableRandom(seed));
        SimConfig config = new SimConfig(jobs, jobs / 5, seed, 200_000_000L);
        double mean = new Simulator(w, policy, "expert-candidate", config).run().meanJctSeconds();
        return Double.isNaN(mean) ? Double.MAX_VALUE : mean;
    }

    /** One coordinate {@code {class, subgraph...}} per class and subgraph shape, heaviest class first. */
    private static List<int[]> coordinates(List<JobClass> classes) {
        List<int[]> out = new ArrayList<>();
        for (int c = 0; c < classes.size(); c++) {
            JobClass jc = classes.get(c);
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
    private static String shape(JobClass c, SimSubgraph sg) {
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

    private static SimTable table(List<List<List<SimChoice>>> options, List<List<double[]>> current) {
        List<List<SubgraphTable>> perClass = new ArrayList<>();
        List<Double> predicted = new ArrayList<>();
        for (int c = 0; c < options.size(); c++) {
            List<SubgraphTable> subgraphTables = new ArrayList<>();
            for (int g = 0; g < options.get(c).size(); g++) {
                subgraphTables.add(new SubgraphTable(options.get(c).get(g), current.get(c).get(g)));
            }
            perClass.add(subgraphTables);
            predicted.add(Double.NaN);
        }
        return new SimTable(perClass, predicted);
    }
}
