package dev.nona.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.controller.ControllerConfig;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.optimize.CostModel;
import dev.nona.placement.PlacementTable;
import dev.nona.topics.record.CatalogDag;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The learning loop on the demo's machinery: a real KRaft broker (child process), the controller on a MiniCluster
 * with the outcome path on, and the executor twin whose servers all compute slower than the 10^12 ops/s they
 * report, each by its own factor (what a fleet on shared hosts, or servers that report their spec-sheet peak, looks
 * like). The loop under test: decisions → twin → outcomes → a {@code CALIBRATION} event with each server's
 * effective speed → a re-optimisation caused by calibration → a new table, different because of what was learned,
 * that the next decisions use.
 *
 * <p>Why the table must change: the optimiser sees the cluster as its servers' mean compute rate $\nu$. At the
 * steady rates below, the reported $\nu$ leaves the servers at a utilisation (0.064) where splitting GPT-2's and
 * ResNet18's parallel branches over servers pays; the learned $\nu$ (0.35 of it) nearly triples the utilisation, and
 * then the servers' queueing and the fork&ndash;join of split parts outweigh the parallel gain, so every model is
 * kept whole. The test checks this on the controller's own solver ({@link NonaTableSolver}), before the run at the
 * nominal rates and after it at the very rates the calibration-caused table was solved for, so that it cannot pass
 * because of the rates alone.
 */
final class DemoLearningLoopIT {

    /** How many times slower than reported the twin runs each server. */
    private static final Map<String, Double> SLOW = Map.of("s-0", 2.0, "s-1", 4.0, "s-2", 3.0, "s-3", 3.0);
    /**
     * Steady rates (requests/s) of four zoo models: no rate shift, so only learning can change the best table. Most
     * of the work is in many light requests (VGG16, one heavy model at a low rate, is left out: its count in a 2 s
     * rate window is too noisy for the table solved from it to be predictable).
     */
    private static final Map<String, Double> RATES = Map.of("resnet18", 28.0, "alexnet", 14.0, "densenet121", 7.0,
            "gpt2", 3.0);
    /** A server named in a calibration cause with the speed learned for it. */
    private static final Pattern LEARNED = Pattern.compile("server (s-[0-9]+) runs at ([0-9.]+e[+-][0-9]+) ops/s");

    private final DemoScenario scenario =
            new DemoScenario(Duration.ofSeconds(20), 4, RATES, RATES, 8, 1.0e12, 1.0e11, 42L);
    /** The solver the demo's controller job runs, with the cost model of the demo's settings. */
    private final NonaTableSolver solver = new NonaTableSolver(CostModel.named(
            ControllerConfig.fromMap(Demo.controllerSettings("localhost:9092", Path.of("unused"))).solverCostModel()));

    @Test
    void slowServers_areLearnedFromOutcomes_andTheTableSolvedForWhatWasLearnedIsPublishedAndUsed() throws Exception {
        double nominal = scenario.opsPerSecond();
        double learnedMean = SLOW.values().stream().mapToDouble(f -> nominal / f).average().orElseThrow();
        assertThat(split(RATES, nominal)).as("the scenario: at the reported speed, splitting pays")
                .isNotEqualTo(split(RATES, learnedMean));

        ByteArrayOutputStream view = new ByteArrayOutputStream();
        DemoSummary summary = new Demo(scenario, Demo.twinOptions(scenario, SLOW, Map.of()), "spark-fair",
                new PrintStream(view, true, StandardCharsets.UTF_8), 0).run();
        String context = "view:\n" + view.toString(StandardCharsets.UTF_8) + "\nsummary: " + summary;

        // every decision executed by the twin and its outcome read back
        assertThat(summary.exactlyOnce()).as(context).isTrue();
        assertThat(summary.outcomesConsumed()).as(context).isEqualTo(summary.requestsPublished());
        assertThat(summary.missingOutcomes()).as(context).isZero();

        // CALIBRATION: each server's effective speed is what the twin runs it at, not what it reports
        assertThat(summary.learnedSpeeds()).as(context).containsOnlyKeys(SLOW.keySet());
        SLOW.forEach((server, factor) -> assertThat(summary.learnedSpeeds().get(server).lastOpsPerSecond())
                .as(context + "\n" + server).isBetween(0.9 * nominal / factor, 1.1 * nominal / factor));

        // a re-optimisation caused by calibration after the first table, and a verdict for that cause
        List<DemoSummary.ControlStep> steps = summary.controlSteps();
        int firstTable = indexOf(steps, 0, "TABLE_PUBLISHED", null);
        int started = indexOf(steps, firstTable + 1, "REOPTIMIZATION_STARTED", "calibration: ");
        assertThat(firstTable).as("the first table; " + context).isNotNegative();
        assertThat(started).as("a re-optimisation caused by calibration; " + context).isPositive();
        String cause = steps.get(started).cause();
        assertCauseNamesLearnedSpeeds(cause, context);
        assertThat(steps.subList(started + 1, steps.size())).as(context)
                .anySatisfy(step -> {
                    assertThat(step.type()).isIn("TABLE_PUBLISHED", "TABLE_REJECTED");
                    assertThat(step.cause()).isEqualTo(cause);
                });

        // a table published for a calibration that differs from the table in force (the servers are learned over a
        // few windows, and the first learned ones may not move the mean enough to change it), solved for the learned
        // speeds, replacing one solved for faster servers
        DemoSummary.ControlStep step = steps.subList(firstTable + 1, steps.size()).stream()
                .filter(s -> s.type().equals("TABLE_PUBLISHED") && s.cause().contains("calibration: "))
                .filter(s -> !rounded(table(summary, s.tableVersion(), context).splitProbability())
                        .equals(rounded(table(summary, s.tableVersion() - 1, context).splitProbability())))
                .findFirst().orElseThrow(() -> new AssertionError(
                        "no table published for a calibration that differs from the one in force; " + context));
        assertCauseNamesLearnedSpeeds(step.cause(), context);
        long version = step.tableVersion();
        DemoSummary.PublishedTable learned = table(summary, version, context);
        DemoSummary.PublishedTable replaced = table(summary, version - 1, context);
        System.out.printf(Locale.ROOT, "DemoLearningLoopIT: table v%d at %.1f s (nu %.4g, split %s) replaced v%d "
                + "(nu %.4g, split %s); cause: %s; %d decisions name v%d%n", version, step.atSeconds(),
                learned.opsPerSecond(), rounded(learned.splitProbability()), version - 1, replaced.opsPerSecond(),
                rounded(replaced.splitProbability()), step.cause(),
                summary.decisionsPerTableVersion().getOrDefault(version, 0L), version);
        double nu = learned.opsPerSecond();
        double mean = meansWithSomeLearned(nominal).stream().min(Comparator.comparingDouble(m -> Math.abs(m - nu)))
                .orElseThrow();
        assertThat(nu).as("the mean of the servers' speeds, some or all learned; " + context)
                .isCloseTo(mean, within(0.02 * mean));
        assertThat(replaced.opsPerSecond()).as("the table in force was solved for faster servers; " + context)
                .isGreaterThan(learned.opsPerSecond());
        Map<String, Double> learnedSplit = rounded(learned.splitProbability());

        // ... and differs because of what was learned: at its own rates, the reported speed gives the other table
        Map<String, Double> rates = learned.ratesPerSecond();
        assertThat(split(rates, learned.opsPerSecond(), learned.servers(), learned.linkBitsPerSecond()))
                .as("the controller's solver, at the table's inputs, finds the published table; " + context)
                .isEqualTo(learnedSplit);
        assertThat(split(rates, nominal, learned.servers(), learned.linkBitsPerSecond()))
                .as("at the same rates the reported speed gives another table; " + context).isNotEqualTo(learnedSplit);

        // the decisions after it use it
        assertThat(summary.decisionsPerTableVersion().getOrDefault(version, 0L)).as(context).isPositive();
    }

    /** Each server the cause names, with its learned speed within 2% of the speed the twin runs it at. */
    private static void assertCauseNamesLearnedSpeeds(String cause, String context) {
        Matcher m = LEARNED.matcher(cause);
        int named = 0;
        while (m.find()) {
            named++;
            double truth = 1.0e12 / SLOW.get(m.group(1));
            assertThat(Double.parseDouble(m.group(2))).as(cause + "; " + context).isCloseTo(truth, within(0.02 * truth));
        }
        assertThat(named).as("servers named in the cause '" + cause + "'; " + context).isPositive();
    }

    /** The servers' mean speed for each non-empty set of them learned (the others at their reported speed). */
    private static List<Double> meansWithSomeLearned(double nominal) {
        List<String> servers = List.copyOf(SLOW.keySet());
        List<Double> means = new ArrayList<>();
        for (int set = 1; set < 1 << servers.size(); set++) {
            double sum = 0;
            for (int i = 0; i < servers.size(); i++) {
                sum += (set & 1 << i) != 0 ? nominal / SLOW.get(servers.get(i)) : nominal;
            }
            means.add(sum / servers.size());
        }
        return means;
    }

    /** The first step from {@code from} of {@code type} whose cause contains {@code cause} (null: any), or -1. */
    private static int indexOf(List<DemoSummary.ControlStep> steps, int from, String type, String cause) {
        for (int i = Math.max(0, from); i < steps.size(); i++) {
            DemoSummary.ControlStep step = steps.get(i);
            if (step.type().equals(type) && (cause == null || step.cause().contains(cause))) {
                return i;
            }
        }
        return -1;
    }

    private static DemoSummary.PublishedTable table(DemoSummary summary, long version, String context) {
        return summary.tables().stream().filter(t -> t.version() == version).findFirst()
                .orElseThrow(() -> new AssertionError("table v" + version + " not read from placement-tables; " + context));
    }

    /**
     * Per model, the probability that a request is split over servers (rounded to 1e-6), in the table the controller's
     * solver finds for {@code rates} on the scenario's four servers and link at compute rate {@code opsPerSecond}.
     */
    private Map<String, Double> split(Map<String, Double> rates, double opsPerSecond) {
        return split(rates, opsPerSecond, List.copyOf(SLOW.keySet()), scenario.linkBitsPerSecond());
    }

    /** The same on the given servers and link. */
    private Map<String, Double> split(Map<String, Double> rates, double opsPerSecond, List<String> servers,
            double linkBitsPerSecond) {
        Map<String, CatalogDag> dags = new TreeMap<>();
        scenario.models().forEach(m -> dags.put(m, ZooCatalog.entry(m).dag()));
        ClusterSnapshot cluster = new ClusterSnapshot(servers, opsPerSecond, linkBitsPerSecond);
        SolveResult result = solver.solve(new SolveInput(dags, rates, cluster, "test"), null);
        assertThat(result.feasible()).as("solve at " + rates + ", nu " + opsPerSecond).isTrue();
        Map<String, Double> split = new TreeMap<>();
        PlacementTable.fromJson(result.tableJson()).models()
                .forEach(m -> split.put(m.name(), PublishedTables.splitProbability(m)));
        return rounded(split);
    }

    private static Map<String, Double> rounded(Map<String, Double> split) {
        Map<String, Double> out = new TreeMap<>();
        split.forEach((m, p) -> out.put(m, Math.round(p * 1e6) / 1e6));
        return out;
    }
}
