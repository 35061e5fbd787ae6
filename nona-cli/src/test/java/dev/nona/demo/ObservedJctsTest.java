package dev.nona.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ObservedJctsTest {

    @Test
    void secondHalfFigures_countOnlyOutcomesCompletedFromTheSplit() {
        ObservedJcts o = new ObservedJcts();
        o.predicted("early", 1.0);
        o.add("early", "m", 1, 1, 999, 100.0); // before the split: ignored
        for (int i = 1; i <= 100; i++) {
            o.predicted("r-" + i, 0.5);
            o.predicted("r-" + i, 9.0); // a later duplicate decision: the first one counts
            o.add("r-" + i, "m", i <= 50 ? 1 : 2, i == 7 ? 2 : 0, 1_000 + i, i / 100.0);
            o.part(i % 2 == 0 ? "s-0" : "s-1", 1_000 + i);
        }
        o.part("s-0", 999);
        o.stage("s-0", 2_000);
        o.stage("s-0", 1_500);
        o.stage("s-1", 1_010);
        o.stage("s-1", 1_050);
        o.stage("s-1", 1_060);
        assertThat(o.lastStageMillis()).containsOnly(Map.entry("s-0", 2_000L), Map.entry("s-1", 1_060L));
        assertThat(o.stagesPerServerInBuckets(1_000, 500).get("s-0")).containsExactly(0, 1, 1);
        assertThat(o.stagesPerServerInBuckets(1_000, 500).get("s-1")).containsExactly(3, 0, 0);

        double[] meanAndP99 = o.meanAndP99Since(1_000);

        assertThat(meanAndP99[0]).isCloseTo(0.505, within(1e-12)); // (0.01 + ... + 1.00) / 100
        assertThat(meanAndP99[1]).isEqualTo(0.99); // nearest rank: the 99th of 100
        assertThat(o.predictedMeanSince(1_000)).isEqualTo(0.5);
        assertThat(o.partsPerServer(1_000).get("s-0")).containsExactly(1, 50);
        assertThat(o.partsPerServer(1_000).get("s-1")).containsExactly(0, 50);
        // 1_001 .. 1_100 in buckets of 40 ms from 1_000: [1_000, 1_040) holds 1_001 .. 1_039, and so on
        assertThat(o.partsPerServerInBuckets(1_000, 40).get("s-0")).containsExactly(19, 20, 11);
        assertThat(o.partsPerServerInBuckets(1_000, 40).get("s-1")).containsExactly(20, 20, 10);
        assertThat(o.meanAndP99Since(5_000)[0]).isNaN();
        assertThat(o.predictedMeanSince(5_000)).isNaN();
        assertThat(o.phase("first half", 0, 1_000)).isEqualTo(new DemoSummary.Phase("first half", 100.0, List.of(1L), 1));
        DemoSummary.Phase second = o.phase("second half", 1_000, Long.MAX_VALUE);
        assertThat(second.observedMeanJctSeconds()).isCloseTo(0.505, within(1e-12));
        assertThat(second.tableVersions()).containsExactly(1L, 2L);
        assertThat(second.coldStartParts()).isEqualTo(2);
        assertThat(o.phase("later", 5_000, Long.MAX_VALUE).observedMeanJctSeconds()).isNaN();
        assertThat(o.phase("later", 5_000, Long.MAX_VALUE).tableVersions()).isEmpty();
    }

    @Test
    void sums_areOverTheSameRequests_outcomesWithTheirDecision() {
        ObservedJcts o = new ObservedJcts();
        o.predicted("a", 0.010);
        o.predicted("b", 0.020);
        o.predicted("waiting", 5.0); // no outcome yet: in neither sum
        o.add("a", "m", 1, 0, 1_000, 0.030);
        o.add("b", "m", 1, 0, 1_001, 0.050);
        o.add("unknown", "m", 1, 1, 1_002, 9.0); // its decision was not read: in neither sum

        assertThat(o.sums()).containsOnlyKeys("m");
        assertThat(o.sums().get("m")).containsExactly(0.030 + 0.050, 0.010 + 0.020, 2);
    }
}
