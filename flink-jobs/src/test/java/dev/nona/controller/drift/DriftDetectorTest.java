package dev.nona.controller.drift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.controller.ControllerConfig.DriftSettings;
import java.time.Duration;
import java.util.Map;
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
    void changeWithinThreshold_neverTriggers() {
        DriftState s = detector.rebased(Map.of("a", 100.0, "b", 10.0), 0);
        for (int w = 1; w <= 10; w++) {
            var e = detector.evaluate(s, w * 20_000L, Map.of("a", 120.0, "b", 8.0));
            assertThat(e.trigger()).isEmpty();
            s = e.next();
        }
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
        // 1 req/s: 10 then 15 requests is a 50% change, but p = 0.42 (Bin(25, 1/2)); pooled instead
        DriftState s = detector.rebased(Map.of("a", 1.0), 0);
        var e = detector.evaluate(s, 20_000, Map.of("a", 1.5));
        assertThat(e.next().streaks()).isEmpty();
        assertThat(e.next().pooled().get("a")).isEqualTo(new DriftState.Pool(25, 20.0));
    }

    @Test
    void modelsOutsideTheCatalog_doNotCount() {
        DriftState s = detector.rebased(Map.of("a", 100.0), 0);
        var e = detector.evaluate(s, 20_000, Map.of("a", 100.0, "nosuchmodel", 500.0), java.util.Set.of("a"));
        assertThat(e.next().streaks()).isEmpty();
        e = detector.evaluate(e.next(), 30_000, Map.of("a", 100.0, "nosuchmodel", 500.0), java.util.Set.of("a"));
        assertThat(e.trigger()).isEmpty();
        assertThat(e.next().pooled()).containsOnlyKeys("a");
    }
}
