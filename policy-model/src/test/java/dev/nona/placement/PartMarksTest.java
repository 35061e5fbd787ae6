package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-server bookkeeping of the parts a placer sent: marks, eviction, what reports keep, the bytes beside. */
final class PartMarksTest {
    private final PartMarks marks = new PartMarks();
    /** Servers 0 and 1 of unbounded memory; {@link #five}: server 0 of 5 bytes. */
    private final ServerMemory unbounded = new ServerMemory();
    private final ServerMemory five = new ServerMemory();

    PartMarksTest() {
        for (ServerMemory m : new ServerMemory[] {unbounded, five}) {
            m.addServer();
            m.addServer();
        }
        five.set(0, "small", 5);
        marks.addServer();
        marks.addServer();
    }

    @Test
    void mark_aNewPartThatDoesNotFit_evictsTheModelsOlderParts_notAnotherModels() {
        assertThat(marks.mark(0, 7, "other", 4, 0, 1, 0, unbounded)).isTrue();
        assertThat(marks.mark(0, 0, "m", 3, 1, 2, 1, unbounded)).isTrue();
        // 3 + 3 bytes of m do not fit in 5: its older part goes, the other model's stays
        assertThat(marks.mark(0, 1, "m", 3, 2, 3, 2, five)).isTrue();

        assertThat(marks.count(0)).isEqualTo(2);
        assertThat(marks.pool(0, 0)).isEqualTo(7);
        assertThat(marks.pool(0, 1)).isEqualTo(1);
        assertThat(marks.find(0, 0)).isNull();
        assertThat(marks.any(1)).isFalse();
    }

    @Test
    void mark_aPartAlreadyThere_isOnlyMarkedUsed_andPinnedFromItsStartOnlyWhenNoEarlierRequestRunsIt() {
        marks.mark(0, 0, "m", 3, 10, 12, 11, unbounded);
        // a second request at 11 while the first runs till 12: the part stays pinned from the first's start
        assertThat(marks.mark(0, 0, "m", 3, 11, 14, 13, five)).isFalse();
        PartMarks.Mark m = marks.find(0, 0);
        assertThat(m.used).isEqualTo(11);
        assertThat(m.runsUntil).isEqualTo(14);
        assertThat(m.pinsFrom).isEqualTo(11);
        // a third at 20, after every earlier one is done: pinned from its own start
        marks.mark(0, 0, "m", 3, 20, 22, 21, five);
        assertThat(m.pinsFrom).isEqualTo(21);
        assertThat(m.due).as("when reports are due to show it: fixed at the first send").isEqualTo(12);
    }

    @Test
    void keepHeld_forgetsAModelsOldestParts_beyondTheReportsBytes_butKeepsAPartTheReportWasTooEarlyFor() {
        marks.mark(0, 0, "m", 2, 0, 1, 0, unbounded);
        marks.mark(0, 1, "m", 2, 1, 2, 1, unbounded);
        marks.mark(0, 2, "m", 2, 5, 9, 5, unbounded); // due at 9

        // a report made at 4 holds 2 bytes of m (+1 for rounding): the newest due part stays, the oldest goes
        assertThat(marks.keepHeld(0, 4, Map.of("m", 2.0)::get)).isTrue();
        assertThat(marks.count(0)).isEqualTo(2);
        assertThat(marks.find(0, 0)).isNull();
        assertThat(marks.find(0, 2)).as("not due by the report").isNotNull();
        assertThat(marks.keepHeld(0, 4, Map.of("m", 2.0)::get)).isFalse();
    }

    @Test
    void otherBytes_countsTheModelsOtherPartsUsedSince_only() {
        marks.mark(0, 0, "m", 2, 0, 1, 0, unbounded);
        marks.mark(0, 1, "m", 3, 6, 7, 6, unbounded);
        marks.mark(0, 2, "x", 5, 6, 7, 6, unbounded);

        assertThat(marks.otherBytes(0, "m", 9, 0)).isEqualTo(5);
        assertThat(marks.otherBytes(0, "m", 1, 0)).isEqualTo(2);
        assertThat(marks.otherBytes(0, "m", 9, 5)).as("part 0 last used at 0").isEqualTo(3);
        assertThat(marks.otherBytes(1, "m", 9, 0)).isZero();
    }
}
