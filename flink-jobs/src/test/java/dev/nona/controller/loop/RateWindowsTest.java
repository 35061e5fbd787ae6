package dev.nona.controller.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.rates.RateEstimate;
import dev.nona.topics.record.ControllerEventType;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class RateWindowsTest {
    private static final long WINDOW = TestingLoop.WINDOW;
    private static final Set<String> FIG1 = Set.of("fig1");

    private final TestingLoop loop = new TestingLoop(TestingLoop.settings(Duration.ofMinutes(10)),
            new NonaTableSolver(false));

    private void add(String model, long index, long count) throws Exception {
        long start = index * WINDOW;
        loop.windows.add(RateEstimate.of(model, start, start + WINDOW, count), loop.io);
    }

    /** Adds fig1's rate for window {@code index} and closes it; returns its trigger, if any. */
    private RateWindows.Trigger window(long index, long count, boolean nothingYet) throws Exception {
        add("fig1", index, count);
        return loop.windows.close((index + 1) * WINDOW, FIG1, nothingYet, loop.io);
    }

    @Test
    void add_setsAnEventTimerAtTheWindowsLastMillisecond_orCloseInProcessingTimeIfTheWatermarkPassedIt()
            throws Exception {
        add("fig1", 0, 5);
        assertThat(loop.io.eventTimers).containsExactly(WINDOW - 1);
        assertThat(loop.io.processingTimers).isEmpty();
        loop.io.watermark = 1_000_000; // another input led the watermark far ahead
        loop.io.now = 500;
        add("fig1", 3, 5);
        assertThat(loop.io.eventTimers).containsExactly(WINDOW - 1);
        assertThat(loop.io.processingTimers).as("the solve poll interval from now").containsExactly(510L);
        assertThat(loop.windows.behind(loop.io.watermark)).containsExactly(WINDOW, 4 * WINDOW);
        assertThat(loop.windows.behind(WINDOW - 1)).containsExactly(WINDOW);
    }

    @Test
    void firstWindow_isTheInitialTrigger_forTheCataloguedModelsOnly_whenNothingIsSolvedOrWaiting() throws Exception {
        add("other", 0, 7);
        RateWindows.Trigger first = window(0, 5, true);
        assertThat(first).isEqualTo(new RateWindows.Trigger("initial", Map.of("fig1", 5.0), true));
        assertThat(loop.windows.open(WINDOW)).as("closed windows leave no state").isFalse();
        assertThat(loop.windowRates.isEmpty()).isTrue();
        assertThat(window(1, 5, false)).as("a table exists or a solve waits").isNull();
        add("fig1", 2, 5);
        assertThat(loop.windows.close(3 * WINDOW, Set.of(), true, loop.io)).as("an empty catalog").isNull();
        assertThat(loop.io.events).isEmpty();
    }

    @Test
    void sustainedShift_triggersOnItsSecondWindow_withAnEvent() throws Exception {
        window(0, 2, true);
        assertThat(window(1, 2, false)).isNull();
        assertThat(window(2, 60, false)).as("one window past the threshold is not sustained").isNull();
        RateWindows.Trigger drift = window(3, 60, false);
        assertThat(drift).isNotNull();
        assertThat(drift.initial()).isFalse();
        assertThat(drift.rates()).containsEntry("fig1", 60.0);
        assertThat(loop.drifts).hasValue(1);
        assertThat(loop.io.events(ControllerEventType.DRIFT_DETECTED)).singleElement().satisfies(e -> {
            assertThat(e.details()).containsEntry("cause", drift.cause()).containsEntry("windowEnd", 4 * WINDOW)
                    .containsKey("relativeChange.fig1");
        });
    }

    @Test
    void pendingChange_triggersAtTheNextWindowEnd_withItsCause() throws Exception {
        window(0, 5, true);
        loop.windows.markPending("cluster: server s2 down (reported up=false)");
        loop.windows.markPending("catalog: model added chain");
        RateWindows.Trigger change = window(1, 5, false);
        assertThat(change.cause()).contains("server s2 down (reported up=false)", "catalog: model added chain");
    }

    @Test
    void closingAWindowNotOpen_isABug() {
        assertThatThrownBy(() -> loop.windows.close(WINDOW, FIG1, true, loop.io))
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("BUG");
    }
}
