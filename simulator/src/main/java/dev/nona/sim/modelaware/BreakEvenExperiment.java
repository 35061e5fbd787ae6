package dev.nona.sim.modelaware;

import dev.nona.modelaware.ColdStartAmortization;
import dev.nona.sim.experiment.Experiment;
import dev.nona.sim.experiment.ExperimentContext;
import dev.nona.sim.report.Charts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.LongStream;

/**
 * Reproduces the thesis's cold-start amortisation (Section 6.3): $R$ sequential t5-small requests, one core
 * each, on 8 machines of 4 cores, routed by {@code random} (the σOS default) and by {@code colocation}. For each
 * $R$ it reports both policies' average latency per request, the gap between them, the random policy's cold
 * starts, and the thesis's worst-case bound $(N - 1) T_{CS} / R$; the break-even point is the first $R$ whose
 * gap is below $\epsilon = 0.01$ s. Random runs are averaged over several seeds.
 *
 * <p>Based on: K. Liu, MEng thesis, MIT, 2025, Section 6.3 (2100 requests: 2097.30 s vs 2115.19 s).
 */
public final class BreakEvenExperiment implements Experiment {
    /** The thesis's threshold on the per-request difference. */
    public static final double EPSILON = 0.01;
    public static final List<Integer> DEFAULT_REQUESTS = List.of(10, 100, 500, 1000, 2000, 2100, 2200, 5000);

    private final int servers;
    private final double tCS;
    private final double tI;
    private final int seeds;

    public BreakEvenExperiment(int servers, double tCS, double tI, int seeds) {
        this.servers = servers;
        this.tCS = tCS;
        this.tI = tI;
        this.seeds = seeds;
    }

    /** The thesis's setting (for the experiment registry). */
    public BreakEvenExperiment() {
        this(8, 3.0, 1.0, 5);
    }

    /** The thesis's setting: 8 machines, t5-small (3 s cold start, 1 s inference), 5 seeds. */
    public static BreakEvenExperiment thesis() {
        return new BreakEvenExperiment(8, 3.0, 1.0, 5);
    }

    /**
     * One row.
     *
     * @param requests               $R$
     * @param colocationMeanSeconds  colocation's average latency per request
     * @param randomMeanSeconds      random's average latency per request (mean over seeds)
     * @param randomColdStarts       random's cold starts (mean over seeds)
     * @param gapSeconds             random minus colocation, per request
     * @param worstCaseBoundSeconds  $(N - 1) T_{CS} / R$
     */
    public record Row(int requests, double colocationMeanSeconds, double randomMeanSeconds, double randomColdStarts,
                      double gapSeconds, double worstCaseBoundSeconds) {}

    public List<Row> run(List<Integer> requestCounts) {
        List<Row> rows = new ArrayList<>();
        for (int r : requestCounts) {
            ThesisWorkload w = workload(r);
            double coloc = new ModelAwareSimulator(w, "colocation", 1).run().meanLatencySeconds();
            List<ModelAwareResult> random = LongStream.rangeClosed(1, seeds)
                    .mapToObj(seed -> new ModelAwareSimulator(w, "random", seed).run()).toList();
            double rnd = random.stream().mapToDouble(ModelAwareResult::meanLatencySeconds).average().orElseThrow();
            double cold = random.stream().mapToLong(ModelAwareResult::coldStarts).average().orElseThrow();
            rows.add(new Row(r, coloc, rnd, cold, rnd - coloc, (servers - 1) * tCS / r));
        }
        return rows;
    }

    /** The first row whose gap is below {@link #EPSILON}, or -1. */
    public static int measuredBreakEven(List<Row> rows) {
        return rows.stream().filter(r -> r.gapSeconds() < EPSILON).mapToInt(Row::requests).findFirst().orElse(-1);
    }

    @Override
    public String name() {
        return "break-even";
    }

    @Override
    public String description() {
        return "thesis Section 6.3: requests until random routing's cold starts are amortised vs colocation";
    }

    @Override
    public void run(ExperimentContext ctx) {
        List<Row> rows = writeTo(ctx.out());
        for (Row r : rows) {
            ctx.progress(String.format(Locale.ROOT, "break-even R=%d: gap %.5f s, random cold starts %.1f", r.requests(),
                    r.gapSeconds(), r.randomColdStarts()));
        }
        Charts chart = new Charts("Random minus colocation, average latency per request", "requests", "gap (s)", true, true);
        for (Row r : rows) {
            chart.add("simulated gap", r.requests(), r.gapSeconds());
            chart.add("worst case (N-1) T_CS / R", r.requests(), r.worstCaseBoundSeconds());
            chart.add("expected (occupancy)", r.requests(),
                    ColdStartAmortization.expectedAverageGapSeconds(servers, r.requests(), tCS));
            chart.add("epsilon", r.requests(), EPSILON);
        }
        chart.write(ctx.out().resolve("break-even.png"));
        ctx.md("%s", markdown(rows).replaceFirst("# [^\\n]*\\n\\n", ""));
        ctx.md("The thesis measured 2097.30 s (colocation) and 2115.19 s (default scheduler) for 2100 requests: a gap of "
                + "%.4f s per request. Its t5-base and t5-large estimates (T_CS about 6 s and 17 s) give %d and %d requests.",
                (2115.19 - 2097.30) / 2100, ColdStartAmortization.breakEvenRequests(8, 6, EPSILON),
                ColdStartAmortization.breakEvenRequests(8, 17, EPSILON));
        ctx.writeSummary("Cold-start amortisation (thesis Section 6.3)");
    }

    /** Runs the default request counts and writes {@code break-even.csv} and {@code break-even.md} to {@code out}. */
    public List<Row> writeTo(Path out) {
        List<Row> rows = run(DEFAULT_REQUESTS);
        try {
            Files.createDirectories(out);
            Files.writeString(out.resolve("break-even.csv"), csv(rows));
            Files.writeString(out.resolve("break-even.md"), markdown(rows));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the break-even results to " + out, e);
        }
        return rows;
    }

    private ThesisWorkload workload(int requests) {
        return new ThesisWorkload(new ThesisCluster(servers, 4, 0),
                List.of(new SimModel("t5-small", 242, tCS, tI, 0, 0)),
                List.of(new RequestGroup("t5-small", requests, 1, RequestGroup.Arrival.SEQUENTIAL)));
    }

    static String csv(List<Row> rows) {
        StringBuilder sb = new StringBuilder("requests,colocation_mean_s,random_mean_s,random_cold_starts,gap_s,worst_case_bound_s\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "%d,%.6f,%.6f,%.2f,%.6f,%.6f%n", r.requests(), r.colocationMeanSeconds(),
                    r.randomMeanSeconds(), r.randomColdStarts(), r.gapSeconds(), r.worstCaseBoundSeconds()));
        }
        return sb.toString();
    }

    String markdown(List<Row> rows) {
        StringBuilder sb = new StringBuilder("# Cold-start amortisation (thesis Section 6.3)\n\n");
        sb.append(String.format(Locale.ROOT, "%d machines, T_CS = %.1f s, T_I = %.1f s, sequential one-core requests; "
                + "random averaged over %d seeds.%n%n", servers, tCS, tI, seeds));
        sb.append("| requests | colocation mean (s) | random mean (s) | random cold starts | gap (s) | bound (N-1)T_CS/R (s) |\n");
        sb.append("| ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %d | %.4f | %.4f | %.1f | %.4f | %.4f |%n", r.requests(),
                    r.colocationMeanSeconds(), r.randomMeanSeconds(), r.randomColdStarts(), r.gapSeconds(),
                    r.worstCaseBoundSeconds()));
        }
        sb.append(String.format(Locale.ROOT, "%nMeasured break-even (first R with gap < %.2f s): %d requests. "
                        + "Worst-case formula: %d requests (thesis: 2100).%n", EPSILON, measuredBreakEven(rows),
                ColdStartAmortization.breakEvenRequests(servers, tCS, EPSILON)));
        return sb.toString();
    }
}
