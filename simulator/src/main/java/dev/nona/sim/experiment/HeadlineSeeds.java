package dev.nona.sim.experiment;

import dev.nona.queueing.ServerQueue;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.report.CsvTable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The paper's headline claims at 70% load, over several seeds, for Nona as the paper defines it (state-oblivious:
 * servers drawn uniformly), as the controller deploys it (the table's groupings, servers from telemetry), with a
 * proposed ledger, and with exact live queues. A claim holds only if it holds in every seed. Also states the queueing floor that no state-oblivious
 * whole-job placement can go under ({@link ServerQueue#samplingWaitRateFloor}), which is why the paper's Nona
 * cannot beat a live scheduler when the servers, not the link, are the bottleneck.
 */
public final class HeadlineSeeds implements Experiment {
    static final double LOAD = 0.7;
    static final int SEEDS = 5;
    private final Map<String, Double> firstSeedLink = new LinkedHashMap<>();

    /** The policies the headline compares, in table order. */
    public static final List<String> POLICIES = List.of("nona", "nona-star", "expert", "nona-controller", "nona-controller-p2", "nona-stale", "nona-jsq", "expert-jsq",
            "random", "opportunistic", "spark-fair", "local", "jsq", "p2c");

    @Override
    public String name() {
        return "headline";
    }

    @Override
    public String description() {
        return "the headline claims at 70% load over " + SEEDS + " seeds, paper's Nona and deployed Nona";
    }

    @Override
    public void run(ExperimentContext ctx) {
        SimWorkload w = ctx.atLoad(LOAD);
        CsvTable csv = new CsvTable("seed", "policy", "meanJctSeconds", "p99JctSeconds", "inferenceMeanJctSeconds",
                "linkUtilization");
        Map<String, double[]> mean = new LinkedHashMap<>();
        firstSeedLink.clear();
        for (int i = 0; i < SEEDS; i++) {
            long seed = ctx.seed() + i;
            for (String policy : POLICIES) {
                SimResult r = ctx.scenario().run(policy, w, w, ctx.jobs(), seed);
                ctx.progress(String.format(Locale.ROOT, "headline seed %d %s: mean JCT %.4g s", seed, policy,
                        r.meanJctSeconds()));
                csv.add(seed, policy, r.meanJctSeconds(), r.p99JctSeconds(), r.inference().mean(), r.linkUtilization());
                mean.computeIfAbsent(policy, p -> new double[SEEDS])[i] = r.meanJctSeconds();
                if (i == 0) {
                    firstSeedLink.put(policy, r.linkUtilization());
                }
            }
        }
        csv.write(ctx.out().resolve("headline.csv"));
        ctx.md("Load %.1f (%s) on `%d` servers, link %.3g bit/s; %d measured inference jobs per run; seeds %d-%d (every policy "
                        + "sees the same arrivals for a given seed). Data: `headline.csv`.%n", LOAD,
                ctx.clusterLoad() ? "over the cluster, sum_j beta_j S_j, `--cluster-load`" : "per server, sum_j beta_j S_j / N",
                w.cluster().servers(),
                w.cluster().linkBitsPerSecond(), ctx.jobs(), ctx.seed(), ctx.seed() + SEEDS - 1);
        table(ctx, mean);
        ctx.md("%nA claim holds only if it holds in every seed.%n");
        claims(ctx, mean, "nona", "expert", "Nona as the paper defines it (state-oblivious, servers uniform)");
        claims(ctx, mean, "nona-controller", "expert-jsq", "Nona as the controller deploys it (the table's groupings; servers by "
                + "the least backlog predicted from telemetry reported once a second plus the work of its own requests since, "
                + "among those with fewer than placement.target-ongoing-requests (2) requests in flight first)");
        claims(ctx, mean, "nona-controller-p2", "expert-jsq", "The same at parallelism 2 (two placement subtasks, each with "
                + "its own ledger, each keeping to its half of the servers)");
        claims(ctx, mean, "nona-stale", "expert", "The controller's rule on 1 s-old counts without a ledger of its own requests");
        claims(ctx, mean, "nona-jsq", "expert-jsq", "Nona with exact, instantaneous queues (join the shortest queue, as spark-fair "
                + "reads them)");
        floor(ctx, w, mean);
        ctx.writeSummary("Headline claims at 70% load, " + SEEDS + " seeds");
    }

    private static void table(ExperimentContext ctx, Map<String, double[]> mean) {
        ctx.md("| policy | mean JCT (s), mean of seeds | min-max | / nona (min-max) | / nona-jsq (min-max) |");
        ctx.md("| --- | --- | --- | --- | --- |");
        for (Map.Entry<String, double[]> e : mean.entrySet()) {
            double[] x = e.getValue();
            ctx.md("| %s | %.4g | %.4g-%.4g | %s | %s |", e.getKey(), avg(x), min(x), max(x), range(x, mean.get("nona")),
                    range(x, mean.get("nona-jsq")));
        }
    }

    private static void claims(ExperimentContext ctx, Map<String, double[]> mean, String subject, String expert, String what) {
        double[] n = mean.get(subject);
        ctx.md("%n**%s** (`%s`):%n", what, subject);
        claim(ctx, "at least 10x better than random", mean.get("random"), n, 10, "random");
        claim(ctx, "better than opportunistic", mean.get("opportunistic"), n, 1, "opportunistic");
        claim(ctx, "better than spark-fair", mean.get("spark-fair"), n, 1, "spark-fair");
        double worst = ratioRange(n, mean.get(expert))[1];
        ctx.md("- within 10%% of %s: %s / %s = %.3f at worst -> %s", expert, subject, expert, worst,
                worst <= 1.10 ? "holds" : "DOES NOT HOLD");
    }

    /** Holds if {@code other / subject} is strictly above {@code factor} (at least, for factor > 1) in every seed. */
    private static void claim(ExperimentContext ctx, String text, double[] other, double[] subject, double factor, String name) {
        double[] r = ratioRange(other, subject);
        boolean holds = factor > 1 ? r[0] >= factor : r[0] > factor;
        ctx.md("- %s: %s / subject = %.4g-%.4g -> %s", text, name, r[0], r[1], holds ? "holds" : "DOES NOT HOLD");
    }

    /**
     * The floor on the mean JCT of any state-oblivious placement that keeps each job on one server: every job's
     * own service time plus the waiting of {@link ServerQueue#samplingWaitRateFloor}, spread over the jobs that
     * use a server; background transfers count their transmission time only.
     */
    static double obliviousMeanJctFloor(SimWorkload w) {
        double nu = w.cluster().opsPerSecond();
        double jobsPerSecond = 0;
        double secondsPerSecond = 0;
        for (SimJobClass c : w.classes()) {
            jobsPerSecond += c.ratePerSecond();
            secondsPerSecond += c.ratePerSecond() * (c.totalOps() / nu + c.commBits() / w.cluster().linkBitsPerSecond());
        }
        double waiting = ServerQueue.samplingWaitRateFloor(w.computeLoad(), w.cluster().servers());
        return (secondsPerSecond + waiting) / jobsPerSecond;
    }

    private void floor(ExperimentContext ctx, SimWorkload w, Map<String, double[]> mean) {
        double floor = obliviousMeanJctFloor(w);
        double nona = avg(mean.get("nona"));
        double spark = avg(mean.get("spark-fair"));
        ctx.md("%n**The queueing floor of state-oblivious placement.** With every job on one server drawn independently of the "
                + "queues, each server is fed a Poisson stream and the Pollaczek-Khinchine waits add up to at least N u^2 / (2(1-u)) "
                + "seconds of waiting per second (`ServerQueue.samplingWaitRateFloor`, M/G/1-FIFO with the job as the customer). "
                + "At u = %.3g per server this puts the mean JCT of any such placement at or above %.4g s, whatever the table; "
                + "measured: nona %.4g s, expert (the best table the search found) %.4g s, local %.4g s; the tables split a "
                + "subgraph with probability at most %.3g (Nona) and %.3g (Expert) here. Live schedulers: spark-fair %.4g s, "
                + "jsq %.4g s.", w.computeLoad(), floor, nona, avg(mean.get("expert")), avg(mean.get("local")),
                ctx.scenario().nonaTable(w).maxSplitProbability(), ctx.scenario().expertTable(w).maxSplitProbability(),
                spark, avg(mean.get("jsq")));
        if (spark < floor) {
            ctx.md("%nSo no state-oblivious table can beat spark-fair on this workload: the server queues, not the link, "
                    + "decide the comparison, and spark-fair reads them. The controller reads them too, a second late, and "
                    + "predicts them in between: nona-controller %.4g s.", avg(mean.get("nona-controller")));
        } else if (spark > nona) {
            ctx.md("%nHere the servers are not what decides: spark-fair spreads jobs over the link and pays for it "
                    + "(link utilisation %.3f against Nona's %.3f in seed %d).", firstSeedLink.get("spark-fair"), firstSeedLink.get("nona"),
                    ctx.seed());
        }
    }

    private static String range(double[] x, double[] base) {
        double[] r = ratioRange(x, base);
        return String.format(Locale.ROOT, "%.4g-%.4g", r[0], r[1]);
    }

    /** The smallest and largest of {@code x[i] / base[i]} over the seeds. */
    private static double[] ratioRange(double[] x, double[] base) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (int i = 0; i < x.length; i++) {
            lo = Math.min(lo, x[i] / base[i]);
            hi = Math.max(hi, x[i] / base[i]);
        }
        return new double[] {lo, hi};
    }

    private static double avg(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    private static double min(double[] x) {
        return Arrays.stream(x).min().orElseThrow();
    }

    private static double max(double[] x) {
        return Arrays.stream(x).max().orElseThrow();
    }
}
