package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.workload.Background;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class CancellationTest {
    private final NonaProblem problem = Figure1.problem(10, Background.NONE, CostModel.DEFAULT);

    @Test
    void stopNeverTrue_givesTheSameSolutionAsSolve() {
        Solution plain = NonaOptimizer.solve(problem);
        Solution polled = NonaOptimizer.solve(problem, NonaOptimizer.Options.DEFAULT, () -> false);
        assertThat(polled.objective()).isEqualTo(plain.objective());
        assertThat(polled.iterations()).isEqualTo(plain.iterations());
        assertThat(polled.job("f").subgraphs()).isEqualTo(plain.job("f").subgraphs());
    }

    @Test
    void stopTurningTrueMidSearch_throwsAtTheNextStep_withoutFinishing() {
        int full = NonaOptimizer.solve(problem).iterations();
        AtomicInteger polls = new AtomicInteger();
        int allowed = 5;
        assertThatThrownBy(() -> NonaOptimizer.solve(problem, NonaOptimizer.Options.DEFAULT,
                () -> polls.incrementAndGet() > allowed))
                .isInstanceOf(SolveCancelledException.class)
                .hasMessageContaining("cancelled");
        assertThat(full).as("the full search takes more steps than were allowed").isGreaterThan(allowed);
        assertThat(polls.get()).as("stopped at the first poll that said stop").isEqualTo(allowed + 1);
    }

    @Test
    void stopAlreadyTrue_stopsBeforeCompiling() {
        AtomicInteger polls = new AtomicInteger();
        assertThatThrownBy(() -> NonaOptimizer.solve(problem, NonaOptimizer.Options.DEFAULT,
                () -> polls.incrementAndGet() > 0))
                .isInstanceOf(SolveCancelledException.class);
        assertThat(polls.get()).isEqualTo(1);
    }
}
