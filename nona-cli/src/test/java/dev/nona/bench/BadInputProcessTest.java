package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** How the benchmark reads what its malformed-record process counted from that process's log. */
final class BadInputProcessTest {
    @Test
    void parseCounts_readsTheLastCountsLine_amongOtherOutput() {
        String log = "08:01:02 INFO producer started\n" + BadInputPublisher.READY + "\n"
                + BadInputPublisher.counts(1, 1, 0) + "\n"
                + "08:01:30 INFO closing\n" + BadInputPublisher.counts(5301, 5194, 107) + "\n";

        assertThat(BadInputProcess.parseCounts(log)).containsExactly(5301, 5194, 107);
    }

    @Test
    void parseCounts_withoutACountsLine_failsWithTheLogsTail() {
        assertThatThrownBy(() -> BadInputProcess.parseCounts("Exception in thread main: no broker"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("did not report its counts")
                .hasMessageContaining("no broker");
    }

    @Test
    void lastLine_readsOnlyACompleteLine_soAHalfWrittenDoneLineIsNotYetDone() {
        assertThat(BadInputProcess.lastLine(BadInputPublisher.READY + "\n" + BadInputPublisher.DONE + " 1000 39",
                BadInputPublisher.DONE, 2)).isNull();
        assertThat(BadInputProcess.lastLine(BadInputPublisher.READY + "\n" + BadInputPublisher.DONE + " 1000 3974\n",
                BadInputPublisher.DONE, 2)).containsExactly(1000, 3974);
        assertThatThrownBy(() -> BadInputProcess.lastLine(BadInputPublisher.DONE + " x\n", BadInputPublisher.DONE, 2))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(BadInputPublisher.DONE + " x");
    }
}
