package dev.nona.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class ServerQueueTest {

    @Test
    void workedExample_equalTasks_reducesToMD1() {
        // 4 servers, tasks of 10 ms arriving at 240/s in total: u = 240 * 0.01 / 4 = 0.6
        // M/D/1: W = u s / (2 (1 - u)) = 0.6 * 0.01 / 0.8 = 7.5 ms
        double s = 0.01, rate = 240;
        assertThat(ServerQueue.utilisation(rate * s, 4)).isCloseTo(0.6, within(1e-12));
        assertThat(ServerQueue.waitingTime(rate * s, rate * s * s, 4)).isCloseTo(7.5e-3, within(1e-12));
    }

    @Test
    void overloaded_isInfinite() {
        assertThat(ServerQueue.waitingTime(4.0, 1.0, 4)).isInfinite();
    }
}
