package dev.nona.controller.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

final class SolveBacklogTest {
    @Test
    void merge_joinsCauses_newestRatesWin_andBumpsTheGeneration() {
        SolveBacklog b = SolveBacklog.of("catalog: model added a", Map.of("a", 1.0)).merge("rate", Map.of("a", 9.0));
        assertThat(b.cause()).isEqualTo("catalog: model added a; rate");
        assertThat(b.rates()).containsEntry("a", 9.0);
        assertThat(b.generation()).isEqualTo(2);
        assertThat(b.merge("rate", Map.of()).cause()).as("a cause already there is not repeated").isEqualTo(b.cause());
    }

    @Test
    void answered_keepsOnlyTheCausesMergedAfterTheAnsweredSolve() {
        SolveBacklog b = SolveBacklog.of("catalog: model added a", Map.of()).merge("rate", Map.of()).failed(0, 1000);
        SolveBacklog next = b.answered("catalog: model added a");
        assertThat(next.cause()).isEqualTo("rate");
        assertThat(next.attempts()).isZero();
        assertThat(next.retryAt()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void failed_countsAttempts_andSetsTheRetryTime() {
        SolveBacklog b = SolveBacklog.of("rate", Map.of()).failed(5_000, 2_000);
        assertThat(b.attempts()).isEqualTo(1);
        assertThat(b.retryAt()).isEqualTo(7_000);
    }

    @Test
    void merge_keepsACauseOnce_andBoundsTheRest() {
        SolveBacklog b = SolveBacklog.of("cluster: servers up [s0]", Map.of());
        for (int i = 0; i < 10_000; i++) {
            b = b.merge("cluster: servers up [s" + (i % 2) + "]", Map.of());
        }
        assertThat(b.cause()).isEqualTo("cluster: servers up [s0]; cluster: servers up [s1]");
        for (int i = 2; i < 10_000; i++) {
            b = b.merge("cluster: servers up [s" + i + "]", Map.of());
        }
        assertThat(b.cause().length()).isLessThanOrEqualTo(Causes.MAX_CHARS + 40);
        assertThat(b.cause()).startsWith("cluster: servers up [s0]; cluster: servers up [s1]; ").endsWith(" more");
    }
}
