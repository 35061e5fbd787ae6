package dev.nona.sim.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.modelaware.ColdStartAmortization;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The thesis's evaluation (Sections 6.2 and 6.4) on the shipped workloads: each scenario is won by the policy
 * that won it on the testbed, and {@code adaptive} is within 5% of the best.
 */
final class ThesisScenariosTest {
    private static final String[] THESIS_POLICIES = {"colocation", "colocation-queuing", "registry"};

    @ParameterizedTest(name = "{0} is won by {1}")
    @CsvSource({
        "colocation-without-queuing-win.json, colocation",
        "colocation-with-queuing-win.json, colocation-queuing",
        "registry-win.json, registry"
    })
    void section64_eachScenario_isWonByTheThesissWinner(String file, String winner) {
        ThesisWorkload w = ThesisExamples.read(file);
        for (long seed = 1; seed <= 5; seed++) {
            double best = ThesisExamples.makespan(w, winner, seed);
            for (String other : THESIS_POLICIES) {
                if (!other.equals(winner)) {
                    assertThat(ThesisExamples.makespan(w, other, seed)).as(other + " seed " + seed).isGreaterThan(best);
                }
            }
        }
    }

    @ParameterizedTest(name = "adaptive on {0}")
    @CsvSource({"colocation-without-queuing-win.json", "colocation-with-queuing-win.json", "registry-win.json"})
    void section64_adaptive_isWithinFivePercentOfTheBest(String file) {
        ThesisWorkload w = ThesisExamples.read(file);
        for (long seed = 1; seed <= 5; seed++) {
            double best = Double.MAX_VALUE;
            for (String p : THESIS_POLICIES) {
                best = Math.min(best, ThesisExamples.makespan(w, p, seed));
            }
            assertThat(ThesisExamples.makespan(w, "adaptive", seed)).isLessThanOrEqualTo(best * 1.05);
        }
    }

    @Test
    void section641_timeline_matchesTheThesissExplanation() {
        ThesisWorkload w = ThesisExamples.read("colocation-without-queuing-win.json");
        // Both cold in parallel: 3 + 1 + 5. Queuing: the second waits for the first's 9 s, then 1 + 5 warm.
        // Registry: 5 s network, then a warm inference, then 5 s post: 11 s.
        assertThat(ThesisExamples.makespan(w, "colocation", 1)).isCloseTo(9.0, within(1e-9));
        assertThat(ThesisExamples.makespan(w, "colocation-queuing", 1)).isCloseTo(15.0, within(1e-9));
        assertThat(ThesisExamples.makespan(w, "registry", 1)).isCloseTo(11.0, within(1e-9));
    }

    @Test
    void section62_colocation_coldStartsExactlyOnce() {
        ThesisWorkload w = ThesisExamples.read("simple-10-requests.json");
        for (long seed = 1; seed <= 10; seed++) {
            ModelAwareResult r = new ModelAwareSimulator(w, "colocation", seed).run();
            assertThat(r.coldStarts()).isEqualTo(1);
            assertThat(r.makespanSeconds()).isCloseTo(3 + 10 * 1.0, within(1e-9));
        }
    }

    @Test
    void section62_random_coldStartsSeveralTimes_asTheOccupancyFormulaPredicts() {
        ThesisWorkload w = ThesisExamples.read("simple-10-requests.json");
        double mean = LongStream.rangeClosed(1, 400)
                .mapToDouble(seed -> new ModelAwareSimulator(w, "random", seed).run().coldStarts())
                .average().orElseThrow();
        // E = 8 (1 - (7/8)^10) = 5.90; the standard error of 400 runs is about 0.04.
        assertThat(mean).isCloseTo(ColdStartAmortization.expectedColdStartsUniform(8, 10), within(0.2));
        for (long seed = 1; seed <= 10; seed++) {
            assertThat(new ModelAwareSimulator(w, "random", seed).run().coldStarts()).isGreaterThan(1);
        }
    }

    @Test
    void routes_countWhereInferenceRan() {
        ModelAwareResult r = new ModelAwareSimulator(ThesisExamples.read("registry-win.json"), "registry", 1).run();
        Map<String, Long> routes = r.routes();
        assertThat(routes.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(3);
        assertThat(routes).containsEntry("REMOTE", 1L).containsEntry("COLD_LOCAL", 1L);
    }

    @Test
    void thesisTables_winnerAgreesWithTheThesisOnEveryWorkload() {
        for (String file : ThesisTablesExperiment.FILES) {
            var thesis = ThesisTablesExperiment.THESIS.get(file);
            var ours = ThesisTablesExperiment.run(ThesisExamples.read(file));
            assertThat(ThesisTablesExperiment.winner(ours, thesis)).as(file).isEqualTo(ThesisTablesExperiment.winnerOf(thesis));
        }
    }

    @Test
    void liveEstimates_learningTheUnlistedPostProcessing_beatsFrozenCatalogEstimates() {
        ThesisWorkload w = ThesisExamples.read("live-estimates.json");
        double learning = ThesisExamples.makespan(w, "adaptive", 1);
        double frozen = new ModelAwareSimulator(w, "adaptive", 1, false).run().makespanSeconds();

        // Frozen at "0 s of post-processing", adaptive waits for the warm machine every burst (as queuing does);
        // the 5 s it observes on the first exit send the bursts' second requests to the registry instead.
        assertThat(frozen).isCloseTo(ThesisExamples.makespan(w, "colocation-queuing", 1), within(1e-9));
        assertThat(learning).isLessThan(0.7 * frozen);
        assertThat(learning).isCloseTo(ThesisExamples.makespan(w, "registry", 1), within(0.01));
    }
}
