package dev.nona.sim.modelaware;

import dev.nona.sim.experiment.Experiment;
import dev.nona.sim.experiment.ExperimentContext;
import dev.nona.sim.report.CsvTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * The thesis's Figure 6.1 (t5-small) and Tables 6.1–6.3 beside ours: every shipped workload of
 * {@code examples/thesis} under every model-aware policy, makespan and cold starts averaged over seeds, with the
 * thesis's measured makespans. The thesis's figures are quoted from the thesis, not computed.
 */
public final class ThesisTablesExperiment implements Experiment {
    /** Seeds per policy and workload (random choices differ by seed). */
    static final int SEEDS = 20;

    /** Measured end-to-end latencies from the thesis, per workload file and policy (seconds). */
    static final Map<String, Map<String, Double>> THESIS = Map.of(
            "simple-10-requests.json", Map.of("random", 29.43, "colocation", 16.64),
            "colocation-without-queuing-win.json", Map.of("colocation", 12.38, "colocation-queuing", 18.80, "registry", 14.41),
            "colocation-with-queuing-win.json", Map.of("colocation", 11.18, "colocation-queuing", 9.65, "registry", 15.19),
            "registry-win.json", Map.of("colocation", 23.09, "colocation-queuing", 25.27, "registry", 20.34));

    static final List<String> FILES = List.of("simple-10-requests.json", "colocation-without-queuing-win.json",
            "colocation-with-queuing-win.json", "registry-win.json");
    static final List<String> POLICIES = List.of("colocation", "colocation-queuing", "registry", "random", "adaptive");

    @Override
    public String name() {
        return "thesis-tables";
    }

    @Override
    public String description() {
        return "thesis Sections 6.2 and 6.4: the examples/thesis workloads under every model-aware policy, beside the thesis's figures";
    }

    /** Mean makespan and cold starts of one policy on one workload over {@link #SEEDS} seeds. */
    public record Outcome(double makespanSeconds, double coldStarts, double minColdStarts, double maxColdStarts) {}

    public static Map<String, Outcome> run(ThesisWorkload w) {
        Map<String, Outcome> out = new LinkedHashMap<>();
        for (String p : POLICIES) {
            List<ModelAwareResult> rs = LongStream.rangeClosed(1, SEEDS).mapToObj(s -> new ModelAwareSimulator(w, p, s).run()).toList();
            out.put(p, new Outcome(rs.stream().mapToDouble(ModelAwareResult::makespanSeconds).average().orElseThrow(),
                    rs.stream().mapToLong(ModelAwareResult::coldStarts).average().orElseThrow(),
                    rs.stream().mapToLong(ModelAwareResult::coldStarts).min().orElseThrow(),
                    rs.stream().mapToLong(ModelAwareResult::coldStarts).max().orElseThrow()));
        }
        return out;
    }

    @Override
    public void run(ExperimentContext ctx) {
        Path dir = examplesDir();
        CsvTable csv = new CsvTable("workload", "policy", "makespanSeconds", "coldStarts", "minColdStarts", "maxColdStarts", "thesisSeconds");
        ctx.md("Mean over %d seeds per cell. The thesis's numbers include σOS overheads (spawning, RPCs) that the "
                + "simulator does not model; compare the ranking and the differences, not the absolute values.%n", SEEDS);
        for (String file : FILES) {
            Map<String, Outcome> outcomes = run(ThesisWorkloadReader.read(dir.resolve(file)));
            Map<String, Double> thesis = THESIS.get(file);
            ctx.md("### %s%n", file);
            ctx.md("| policy | makespan (s) | cold starts (min-max) | thesis (s) |");
            ctx.md("| --- | ---: | ---: | ---: |");
            outcomes.forEach((p, o) -> {
                Double t = thesis.get(p);
                csv.add(file, p, o.makespanSeconds(), o.coldStarts(), o.minColdStarts(), o.maxColdStarts(), t == null ? "" : t);
                ctx.md("| %s | %.2f | %.1f (%.0f-%.0f) | %s |", p, o.makespanSeconds(), o.coldStarts(), o.minColdStarts(),
                        o.maxColdStarts(), t == null ? "" : String.format(Locale.ROOT, "%.2f", t));
            });
            ctx.md("%nWinner among the thesis's measured policies: ours %s, thesis %s.%n", winner(outcomes, thesis), winnerOf(thesis));
            ctx.progress("thesis-tables " + file + ": winner " + winner(outcomes, thesis));
        }
        liveEstimates(ctx, dir.resolve("live-estimates.json"), csv);
        csv.write(ctx.out().resolve("thesis-tables.csv"));
        ctx.writeSummary("The thesis's workloads (Sections 6.2 and 6.4)");
    }

    /** Ours, beyond the thesis: what the live estimates are worth when the catalog is wrong. */
    private static void liveEstimates(ExperimentContext ctx, Path file, CsvTable csv) {
        ThesisWorkload w = ThesisWorkloadReader.read(file);
        Map<String, Outcome> outcomes = run(w);
        ModelAwareResult frozen = new ModelAwareSimulator(w, "adaptive", 1, false).run();
        ctx.md("### live-estimates.json (ours)%n");
        ctx.md("| policy | makespan (s) | cold starts |");
        ctx.md("| --- | ---: | ---: |");
        outcomes.forEach((p, o) -> {
            csv.add("live-estimates.json", p, o.makespanSeconds(), o.coldStarts(), o.minColdStarts(), o.maxColdStarts(), "");
            ctx.md("| %s | %.2f | %.1f |", p, o.makespanSeconds(), o.coldStarts());
        });
        csv.add("live-estimates.json", "adaptive-frozen", frozen.makespanSeconds(), frozen.coldStarts(), frozen.coldStarts(),
                frozen.coldStarts(), "");
        ctx.md("| adaptive, estimates frozen at the catalog | %.2f | %d |%n", frozen.makespanSeconds(), frozen.coldStarts());
        ctx.progress(String.format(Locale.ROOT, "thesis-tables live-estimates: adaptive %.2f s, frozen %.2f s",
                outcomes.get("adaptive").makespanSeconds(), frozen.makespanSeconds()));
    }

    /** Our best policy among those the thesis measured on this workload. */
    static String winner(Map<String, Outcome> ours, Map<String, Double> thesis) {
        return thesis.keySet().stream().min((a, b) -> Double.compare(ours.get(a).makespanSeconds(), ours.get(b).makespanSeconds()))
                .orElseThrow();
    }

    static String winnerOf(Map<String, Double> thesis) {
        return thesis.entrySet().stream().min(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    /** {@code examples/thesis}, found from the working directory or one of its ancestors. */
    static Path examplesDir() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path f = d.resolve("examples/thesis");
            if (Files.isDirectory(f)) {
                return f;
            }
        }
        throw new IllegalArgumentException("examples/thesis not found in " + Path.of("").toAbsolutePath() + " or above; run from the repository");
    }
}
