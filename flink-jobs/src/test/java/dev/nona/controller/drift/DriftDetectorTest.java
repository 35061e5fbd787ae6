package dev.nona.controller.drift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.controller.ControllerConfig.DriftSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class DriftDetectorTest {
    private final DriftDetector detector = new DriftDetector(new DriftSettings(0.25, 2, Duration.ofSeconds(10), 1.0),
            Duration.ofSeconds(10));

    @Test
    void relativeChange_workedExample() {
        assertThat(detector.relativeChange(100, 130)).isCloseTo(0.30, within(1e-12));
        assertThat(detector.relativeChange(0.2, 0.8)).as("below min rate: divided by 1.0").isCloseTo(0.6, within(1e-12));
        assertThat(detector.relativeChange(50, 0)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void drift_mustBeSustainedForConfiguredWindows() {
        DriftState s = detector.rebased(Map.of("a", 100.0), 0);
        var first = detector.evaluate(s, 20_000, Map.of("a", 150.0));
        assertThat(first.trigger()).isEmpty();
        assertThat(first.next().streaks()).containsEntry("a", 1);
        var second = detector.evaluate(first.next(), 21_000, Map.of("a", 150.0));
        assertThat(second.trigger()).isPresent();
        assertThat(second.trigger().get().relativeChange().get("a")).isCloseTo(0.5, within(1e-12));
        assertThat(second.next().baseline()).containsEntry("a", 150.0);
        assertThat(second.next().streaks()).isEmpty();
    }

    @Test
    void blip_resetsTheStreak() {
        DriftState s = detector.rebased(Map.of("a", 100.0), 0);
        s = detector.evaluate(s, 20_000, Map.of("a", 150.0)).next();
        s = detector.evaluate(s, 21_000, Map.of("a", 110.0)).next();
        assertThat(s.streaks()).isEmpty();
        assertThat(detector.evaluate(s, 22_000, Map.of("a", 150.0)).trigger()).isEmpty();
    }

    @Test
    void changeShownBelowThreshold_neverTriggers() {
        // a: +10% at 100 req/s; "at least +25%" has p = 0.0019 < 0.01 (Bin(2100, 5/9)): not drift-like, pooled.
        // b: -20% at 10 req/s; drift-like, but the streak's 80 a window against 100 is not significant at 4e-6
        DriftState s = detector.rebased(Map.of("a", 100.0, "b", 10.0), 0);
        for (int w = 1; w <= 10; w++) {
            var e = detector.evaluate(s, w * 20_000L, Map.of("a", 110.0, "b", 8.0));
            assertThat(e.trigger()).as("window %s", w).isEmpty();
            s = e.next();
        }
        assertThat(s.streaks()).containsOnlyKeys("b");
        assertThat(s.pooled().get("a")).isEqualTo(new DriftState.Pool(12_000, 110.0));
    }

    @Test
    void changeALittleBelowThreshold_thatTwoWindowsCannotTellFromIt_triggers() {
        // The price of catching every change of the threshold: 120 req/s for two windows against a minute at 100
        // is significant (p = 1e-13) and does not show the change to be below +25% (p = 0.046, Bin(8400, 25/85)).
        DriftState s = detector.rebased(Map.of("a", 100.0), 0);
        for (int w = 1; w <= 5; w++) {
            s = detector.evaluate(s, w * 10_000L, Map.of("a", 100.0)).next();
        }
        var first = detector.evaluate(s, 60_000, Map.of("a", 120.0));
        assertThat(first.trigger()).isEmpty();
        var second = detector.evaluate(first.next(), 70_000, Map.of("a", 120.0));
        assertThat(second.trigger()).isPresent();
        assertThat(second.trigger().get().relativeChange().get("a")).isCloseTo(0.2, within(1e-12));
    }

    @Test
    void direction_workedExamples() {
        DriftState.Pool base = new DriftState.Pool(1000, 10);
        assertThat(detector.direction(base, 1200, 10)).as("+20%: may be +25%").isEqualTo(1);
        assertThat(detector.direction(base, 1100, 10)).as("+10%: shown below +25%").isZero();
        assertThat(detector.direction(base, 700, 10)).as("-30%").isEqualTo(-1);
        assertThat(detector.direction(base, 1000, 10)).as("no change").isZero();
        // from rate 0 the threshold is 0.25 * min-rate: P[Poisson(2.5) <= 1] = 0.287
        assertThat(detector.direction(new DriftState.Pool(0, 10), 1, 10)).isEqualTo(1);
        assertThat(detector.direction(new DriftState.Pool(0, 10), 0, 10)).isZero();
        // 0.2 req/s: a fall of 0.25 * min-rate (1 req/s) is out of reach
        assertThat(detector.direction(new DriftState.Pool(2, 10), 0, 10)).isZero();
    }

    @Test
    void streak_endsWhenTheChangeTurns_andJoinsTheBaseline() {
        DriftState s = detector.rebased(Map.of("a", 100.0), 0);
        s = detector.evaluate(s, 20_000, Map.of("a", 150.0)).next();
        assertThat(s.streakPools()).containsEntry("a", new DriftState.Pool(1500, 10.0));
        s = detector.evaluate(s, 30_000, Map.of("a", 50.0)).next();
        assertThat(s.pooled()).containsEntry("a", new DriftState.Pool(2500, 20.0));
        assertThat(s.streakPools()).containsEntry("a", new DriftState.Pool(500, 10.0));
        assertThat(s.streaks()).containsEntry("a", 1);
    }

    @Test
    void afterATrigger_theDriftingModelsStreakIsItsBaseline_othersKeepTheirs() {
        DriftState s = detector.rebased(Map.of("a", 100.0, "b", 50.0), 0);
        s = detector.evaluate(s, 20_000, Map.of("a", 150.0, "b", 50.0)).next();
        var e = detector.evaluate(s, 30_000, Map.of("a", 150.0, "b", 50.0));
        assertThat(e.trigger()).isPresent();
        assertThat(e.trigger().get().relativeChange()).containsOnlyKeys("a");
        assertThat(e.next().baseline()).containsEntry("a", 150.0).containsEntry("b", 50.0);
        assertThat(e.next().pooled()).containsEntry("a", new DriftState.Pool(3000, 20.0))
                .containsEntry("b", new DriftState.Pool(1500, 30.0));
        assertThat(e.next().streakPools()).isEmpty();
    }

    @Test
    void debounce_holdsTriggerUntilItHasPassed_thenFires() {
        DriftState s = detector.rebased(Map.of("a", 100.0), 0);
        s = detector.evaluate(s, 4_000, Map.of("a", 300.0)).next();
        var suppressed = detector.evaluate(s, 5_000, Map.of("a", 300.0));
        assertThat(suppressed.trigger()).as("only 5 s since the last trigger").isEmpty();
        var fired = detector.evaluate(suppressed.next(), 10_000, Map.of("a", 300.0));
        assertThat(fired.trigger()).isPresent();
        assertThat(fired.trigger().get().cause()).isEqualTo("rate");
    }

    @Test
    void triggerBeforeAnyTable_startsEachModelFromThisWindow() {
        // a catalog change before the first table: no baseline yet, so nothing is kept from the empty one
        var e = detector.evaluate(DriftState.initial().withPendingCause("catalog: model added a"), 10_000,
                Map.of("a", 2.0));
        assertThat(e.trigger()).isPresent();
        assertThat(e.next().pooled()).containsEntry("a", new DriftState.Pool(20, 10.0));
        assertThat(e.next().streaks()).isEmpty();
        assertThat(detector.evaluate(e.next(), 20_000, Map.of("a", 2.0)).next().pooled())
                .containsEntry("a", new DriftState.Pool(40, 20.0));
    }

    @Test
    void clusterChange_triggersAtNextWindow_withItsCause() {
        DriftState s = detector.rebased(Map.of("a", 100.0), 0).withPendingCause("cluster: servers down [s2]");
        var e = detector.evaluate(s, 30_000, Map.of("a", 100.0));
        assertThat(e.trigger()).isPresent();
        assertThat(e.trigger().get().cause()).isEqualTo("cluster: servers down [s2]");
        assertThat(e.next().pendingCause()).isNull();
    }

    @Test
    void modelGoingQuiet_countsAsZeroRate() {
        DriftState s = detector.rebased(Map.of("a", 100.0), 0);
        s = detector.evaluate(s, 20_000, Map.of()).next();
        assertThat(detector.evaluate(s, 21_000, Map.of()).trigger()).isPresent();
    }

    @Test
    void lowRateNoise_pastTheThresholdButNotSignificant_isNotDrift() {
        // 1 req/s: 15 requests a window against 10 is +50%, drift-like, but ten such windows pooled (150 against
        // 10 over 10 s) have p = 0.26: never significant at 4e-6
        DriftState s = detector.rebased(Map.of("a", 1.0), 0);
        var e = detector.evaluate(s, 20_000, Map.of("a", 1.5));
        assertThat(e.next().streaks()).containsEntry("a", 1);
        assertThat(e.next().pooled().get("a")).isEqualTo(new DriftState.Pool(10, 10.0));
        for (int w = 2; w <= 10; w++) {
            e = detector.evaluate(e.next(), 10_000L + w * 10_000L, Map.of("a", 1.5));
            assertThat(e.trigger()).as("window %s", w).isEmpty();
        }
        assertThat(e.next().streakPools().get("a")).isEqualTo(new DriftState.Pool(150, 100.0));
    }

    @Test
    void modelsOutsideTheCatalog_doNotCount() {
        DriftState s = detector.rebased(Map.of("a", 100.0), 0);
        var e = detector.evaluate(s, 20_000, Map.of("a", 100.0, "nosuchmodel", 500.0), Set.of("a"));
        assertThat(e.next().streaks()).isEmpty();
        e = detector.evaluate(e.next(), 30_000, Map.of("a", 100.0, "nosuchmodel", 500.0), Set.of("a"));
        assertThat(e.trigger()).isEmpty();
        assertThat(e.next().pooled()).containsOnlyKeys("a");
    }
}
