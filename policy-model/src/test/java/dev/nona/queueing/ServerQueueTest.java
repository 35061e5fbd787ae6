package dev.nona.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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

    @Test
    void waits_singleTaskJobsOnly_entryIsPkWaitAndStretchIsPs() {
        // every task an entry: W = R / (1 - u) = PK; f = u / (1 - u) = 0.6 / 0.4
        double s = 0.01, rate = 240;
        ServerWaits w = ServerQueue.waits(rate * s, rate * s * s, rate * s, rate * s * s, 4);
        assertThat(w.entry()).isCloseTo(7.5e-3, within(1e-12));
        assertThat(w.stretch()).isCloseTo(1.5, within(1e-12));
        assertThat(w.reentry(0.02)).isCloseTo(0.03, within(1e-12));
    }

    @Test
    void workedExample_chainsReenter_entryWaitBelowPk() {
        // 4 servers; single-task jobs of 10 ms at 120/s; chain jobs at 40/s: a 2 ms first task (entry), then four
        // 5 ms tasks that re-enter. sum lambda s = 1.2 + 40 * 0.022 = 2.08, u = 0.52, f = 0.52 / 0.48;
        // sum lambda s^2 = 0.012 + 40 * 1.04e-4 = 0.01616 (entry part 0.01216, re-entry 0.004);
        // R = 0.01616 / (2 * 4) = 2.02e-3; queued re-entry work = f * 0.004 / 4 = 1.0833e-3;
        // u_in = (1.2 + 0.08) / 4 = 0.32; W = (2.02e-3 + 1.0833e-3) / 0.68 = 4.5637e-3 s
        // (the PK wait charging every task as a FIFO customer would be 0.01616 / 8 / 0.48 = 4.208e-3 per task).
        ServerWaits w = ServerQueue.waits(2.08, 0.01616, 1.28, 0.01216, 4);
        assertThat(w.stretch()).isCloseTo(0.52 / 0.48, within(1e-12));
        assertThat(w.entry()).isCloseTo(4.5637e-3, within(1e-7));
        assertThat(ServerQueue.waitingTime(2.08, 0.01616, 4)).isCloseTo(4.2083e-3, within(1e-7));
    }

    @Test
    void waits_overloaded_areInfinite() {
        ServerWaits w = ServerQueue.waits(4.0, 1.0, 1.0, 0.5, 4);
        assertThat(w.entry()).isInfinite();
        assertThat(w.finite()).isFalse();
    }

    @Test
    void waits_entryLoadAboveTotal_namesTheValue() {
        assertThatThrownBy(() -> ServerQueue.waits(1.0, 1.0, 2.0, 0.5, 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("entry load (2.0)");
        assertThatThrownBy(() -> new ServerWaits(-1, 0)).hasMessageContaining("entry wait (-1.0)");
    }
}
