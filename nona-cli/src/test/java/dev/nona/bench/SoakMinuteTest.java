package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class SoakMinuteTest {
    @Test
    void outside_cutsTheExcludedRangesOut_inOrder_clippedToTheMinute() {
        List<long[]> parts = SoakMinute.outside(100, 200, List.of(new long[] {150, 160}, new long[] {90, 110},
                new long[] {155, 170}, new long[] {300, 400}));
        assertThat(parts).containsExactly(new long[] {110, 150}, new long[] {170, 200});
    }

    @Test
    void outside_nothingExcluded_isTheWholeRange_andAllExcluded_isNothing() {
        assertThat(SoakMinute.outside(0, 60, List.of())).containsExactly(new long[] {0, 60});
        assertThat(SoakMinute.outside(0, 60, List.of(new long[] {-5, 60}))).isEmpty();
    }
}
