package dev.nona.sim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Goal (b)'s target against the workload's lower bound: a point where no placement could meet it is told apart. */
final class QualityMemorySummaryTest {
    private static final double BOUND = 0.1408;

    @Test
    void points_targetBelowTheLowerBound_isUnattainable_aboveIt_isNot() {
        List<QualityMemoryRow> rows = new ArrayList<>();
        // load 0.7: the best baseline 0.1630 s, so the target is 0.85 * 0.1630 = 0.13855 s, below the bound
        rows.addAll(point(0.7, 0.1492, 0.1630));
        // load 0.9: the best baseline 0.1824 s, the target 0.15504 s, above the bound (missed, not unattainable)
        rows.addAll(point(0.9, 0.1677, 0.1824));
        List<QualityMemorySummary.Point> points = QualityMemorySummary.points(rows);

        assertThat(points).hasSize(2);
        QualityMemorySummary.Point low = points.get(0);
        assertThat(low.best()).isEqualTo("least-expected-finish");
        assertThat(low.memoryTarget()).isCloseTo(0.85 * 0.1630, within(1e-12));
        assertThat(low.lowerBound()).isEqualTo(BOUND);
        assertThat(low.memoryTargetUnattainable()).isTrue();
        QualityMemorySummary.Point high = points.get(1);
        assertThat(high.memoryTarget()).isCloseTo(0.85 * 0.1824, within(1e-12));
        assertThat(high.memoryTargetUnattainable()).isFalse();
    }

    @Test
    void points_goalD_comparesColdStartsWithEachColocationPolicy_andMarksUnstableRuns() {
        QualityMemorySummary.Point p = withColocation(12, 2);

        // the controller's 10 cold starts per 1,000 jobs: fewer than colocation's 12, more than colocation-queuing's 1
        assertThat(p.of(p.coldPer1000(), Quality.CONTROLLER)).isEqualTo(10.0);
        assertThat(p.fewerColdStartsThan("colocation")).isTrue();
        assertThat(p.fewerColdStartsThan("colocation-queuing")).isFalse();
        assertThat(p.fewerColdStartsThan("not-run")).isTrue();
        assertThat(p.unstable("colocation-queuing")).isTrue();
        assertThat(p.unstable("colocation")).isFalse();
        assertThat(p.best()).isEqualTo("least-expected-finish");
    }

    @Test
    void points_goalD_onReloads_comparesTheReloadsAlone() {
        QualityMemorySummary.Point p = withColocation(4, 3);

        // the controller: 10 cold starts per 1,000 jobs, 2 of them reloads; colocation 4 and 3; colocation-queuing 1 and 0
        assertThat(p.of(p.reloadPer1000(), Quality.CONTROLLER)).isEqualTo(2.0);
        assertThat(p.fewerColdStartsThan("colocation")).isFalse();
        assertThat(p.fewerReloadsThan("colocation")).isTrue();
        assertThat(p.fewerReloadsThan("colocation-queuing")).isFalse();
        assertThat(p.fewerReloadsThan("not-run")).isTrue();
    }

    /**
     * Load 0.5: {@link #point}'s policies (10 cold starts per 1,000 jobs each, 2 of them reloads), {@code colocation}
     * with {@code coldStarts} and {@code reloads}, and an unstable {@code colocation-queuing} with 1 and 0.
     */
    private static QualityMemorySummary.Point withColocation(long coldStarts, long reloads) {
        List<QualityMemoryRow> rows = new ArrayList<>(point(0.5, 0.15, 0.16));
        rows.add(row(0.5, "colocation", 0.17, coldStarts, reloads, false));
        rows.add(row(0.5, "colocation-queuing", 600, 1, 0, true));
        return QualityMemorySummary.points(rows).get(0);
    }

    private static List<QualityMemoryRow> point(double load, double controller, double best) {
        List<QualityMemoryRow> rows = new ArrayList<>();
        rows.add(row(load, Quality.CONTROLLER, controller));
        rows.add(row(load, Quality.UNIFORM, controller));
        rows.add(row(load, "least-expected-finish", best));
        rows.add(row(load, "jsq", 2 * best));
        return rows;
    }

    private static QualityMemoryRow row(double load, String policy, double meanJct) {
        return row(load, policy, meanJct, 10, 2, false);
    }

    private static QualityMemoryRow row(double load, String policy, double meanJct, long coldStarts, long reloads,
            boolean arrivalsStopped) {
        QualityRow r = new QualityRow("memory-bound", load, load, 1, policy, meanJct, 2 * meanJct, meanJct, 0.1, 0, 1, Double.NaN,
                arrivalsStopped, 1);
        return new QualityMemoryRow(r, coldStarts, reloads, 0, 0, 1000, "large:0.5;small:0.5", BOUND);
    }
}
