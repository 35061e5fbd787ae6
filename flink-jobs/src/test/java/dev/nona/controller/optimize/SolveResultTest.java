package dev.nona.controller.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class SolveResultTest {
    @Test
    void failedFromAThrowable_keepsItsTypeAndCauses() {
        SolveResult npe = SolveResult.failed(new NullPointerException(), 3.0);
        assertThat(npe.error()).as("not \"null\"").isEqualTo("java.lang.NullPointerException");
        SolveResult wrapped = SolveResult.failed(new IllegalStateException("solve broke",
                new IllegalArgumentException("bad\nrate")), 1.0);
        assertThat(wrapped.error()).isEqualTo("java.lang.IllegalStateException: solve broke; caused by "
                + "java.lang.IllegalArgumentException: bad rate");
        assertThat(wrapped.solveMillis()).isEqualTo(1.0);
        assertThat(wrapped.feasible()).isFalse();
    }

    @Test
    void failedFromAThrowable_staysBounded() {
        SolveResult long_ = SolveResult.failed(new RuntimeException("x".repeat(5000)), 0);
        assertThat(long_.error().length()).isLessThanOrEqualTo(SolveResult.MAX_ERROR_CHARS + 3);
    }
}
