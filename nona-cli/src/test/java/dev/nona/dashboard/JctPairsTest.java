package dev.nona.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class JctPairsTest {
    private static final long T0 = 1_800_000_000_000L;

    private final JctPairs pairs = new JctPairs(10, 1_000);

    @Test
    void window_meansPredictedAndObserved_ofExactlyThePairedRequests() {
        pairs.predicted("a", 0.010);
        pairs.predicted("b", 0.020);
        pairs.predicted("never-observed", 5.0); // no outcome: not in either mean
        pairs.observed("a", "m", T0, 0.030);
        pairs.observed("b", "m", T0 + 500, 0.050);
        pairs.observed("no-decision", "m", T0, 9.0); // no decision read: not in either mean

        JctPairs.Window w = pairs.window().get("m");

        assertThat(w.requests()).isEqualTo(2);
        assertThat(w.predictedMeanSeconds()).isCloseTo(0.015, within(1e-15));
        assertThat(w.observedMeanSeconds()).isCloseTo(0.040, within(1e-15));
        assertThat(w.observedOverPredicted()).isCloseTo(0.080 / 0.030, within(1e-12));
    }

    @Test
    void outcomeReadBeforeItsDecision_isPairedWhenTheDecisionComes() {
        pairs.observed("a", "m", T0, 0.030);
        assertThat(pairs.window()).isEmpty();

        pairs.predicted("a", 0.010);

        assertThat(pairs.window().get("m")).isEqualTo(new JctPairs.Window(1, 0.010, 0.030));
    }

    @Test
    void firstDecisionWins() {
        pairs.predicted("a", 0.010);
        pairs.predicted("a", 0.900); // a duplicate decision
        pairs.observed("a", "m", T0, 0.030);

        assertThat(pairs.window().get("m").predictedSumSeconds()).isEqualTo(0.010);
    }

    @Test
    void window_keepsTheLastSecondsBeforeTheNewestCompletion_bothHalvesTogether() {
        // second 0: a cold start, predicted 10 ms, observed 2 s; seconds 10 and 11: warm, as predicted
        pairs.predicted("cold", 0.010);
        pairs.observed("cold", "m", T0 + 999, 2.0);
        pairs.predicted("warm-1", 0.010);
        pairs.observed("warm-1", "m", T0 + 10_000, 0.011);
        assertThat(pairs.window().get("m").requests()).isEqualTo(1); // second 0 fell out of (10 - 10, 10]

        pairs.predicted("warm-2", 0.012);
        pairs.observed("warm-2", "m", T0 + 11_500, 0.013);
        pairs.predicted("late", 0.010);
        pairs.observed("late", "m", T0 + 1_500, 3.0); // completed before the window: not counted

        JctPairs.Window w = pairs.window().get("m");
        assertThat(w).isEqualTo(new JctPairs.Window(2, 0.010 + 0.012, 0.011 + 0.013));
        assertThat(w.observedOverPredicted()).isCloseTo(0.024 / 0.022, within(1e-12));
    }

    @Test
    void models_haveTheirOwnWindows() {
        pairs.predicted("a", 0.010);
        pairs.predicted("r", 0.100);
        pairs.observed("a", "alexnet", T0, 0.020);
        pairs.observed("r", "resnet18", T0, 0.300);

        assertThat(pairs.window()).containsOnlyKeys("alexnet", "resnet18");
        assertThat(pairs.window().get("resnet18").observedOverPredicted()).isCloseTo(3.0, within(1e-12));
    }

    @Test
    void unpaired_areBounded_oldestDroppedFirst() {
        JctPairs small = new JctPairs(10, 2);
        small.predicted("a", 0.010);
        small.predicted("b", 0.020);
        small.predicted("c", 0.030); // drops a
        small.observed("a", "m", T0, 1.0);
        small.observed("b", "m", T0, 1.0);
        small.observed("c", "m", T0, 1.0);

        assertThat(small.window().get("m")).isEqualTo(new JctPairs.Window(2, 0.020 + 0.030, 2.0));
    }

    @Test
    void emptyWindow_hasNoMeans_andZeroPredictedHasNoRatio() {
        assertThat(JctPairs.Window.EMPTY.predictedMeanSeconds()).isNull();
        assertThat(JctPairs.Window.EMPTY.observedMeanSeconds()).isNull();
        assertThat(JctPairs.Window.EMPTY.observedOverPredicted()).isNull();
        assertThat(new JctPairs.Window(1, 0.0, 0.5).observedOverPredicted()).isNull();
    }

    @Test
    void badBounds_areRejected() {
        assertThatThrownBy(() -> new JctPairs(0, 1)).hasMessage("JCT window (0 s) must be >= 1");
        assertThatThrownBy(() -> new JctPairs(1, 0)).hasMessage("unpaired bound (0) must be >= 1");
    }
}
