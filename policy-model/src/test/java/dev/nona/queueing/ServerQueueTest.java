package dev.nona.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
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

    @Test
    void samplingWaitRateFloor_workedExample_equalsMD1WhenServiceIsDeterministicAndEven() {
        // 4 servers, jobs of 10 ms at 240/s spread evenly: u = 0.6, each server M/D/1 with lambda = 60/s,
        // W = u s / (2 (1 - u)) = 7.5 ms; waiting per second = 240 * 7.5e-3 = 1.8 = N u^2 / (2 (1 - u)) = 4 * 0.36 / 0.8
        assertThat(ServerQueue.samplingWaitRateFloor(0.6, 4)).isCloseTo(1.8, within(1e-12));
        assertThat(ServerQueue.samplingWaitRateFloor(0.6, 4) / 240).isCloseTo(ServerQueue.waitingTime(2.4, 240 * 1e-4, 4), within(1e-15));
    }

    @Test
    void samplingWaitRateFloor_anyRandomSplitOfAnyMix_waitsAtLeastTheFloor() {
        // three job classes (deterministic sizes) routed to 5 servers by random fixed weights: the PK waits of the
        // M/G/1 servers, summed as lambda_i W_i, never go below the floor at the same mean utilisation.
        SplittableRandom rng = new SplittableRandom(20261123);
        int servers = 5;
        int checked = 0;
        for (int trial = 0; trial < 2000; trial++) {
            double[] size = {rng.nextDouble(0.001, 1), rng.nextDouble(0.001, 1), rng.nextDouble(0.001, 1)};
            double[] rate = {rng.nextDouble(0.1, 10), rng.nextDouble(0.1, 10), rng.nextDouble(0.1, 10)};
            double[][] share = new double[3][servers];
            for (double[] row : share) {
                double sum = 0;
                for (int i = 0; i < servers; i++) {
                    row[i] = rng.nextDouble();
                    sum += row[i];
                }
                for (int i = 0; i < servers; i++) {
                    row[i] /= sum;
                }
            }
            double load = 0;
            for (int j = 0; j < 3; j++) {
                load += rate[j] * size[j];
            }
            double scale = rng.nextDouble(0.05, 0.9) * servers / load; // target mean utilisation in (0.05, 0.9)
            // PK per server: W_i = sum_j lambda_ij s_j^2 / (2 (1 - rho_i)); waiting per second adds lambda_i W_i
            double waitingPerSecond = 0;
            boolean stable = true;
            for (int i = 0; i < servers; i++) {
                double lambda = 0;
                double lambdaS = 0;
                double lambdaS2 = 0;
                for (int j = 0; j < 3; j++) {
                    double l = rate[j] * scale * share[j][i];
                    lambda += l;
                    lambdaS += l * size[j];
                    lambdaS2 += l * size[j] * size[j];
                }
                stable &= lambdaS < 1;
                waitingPerSecond += lambda * lambdaS2 / (2 * (1 - lambdaS));
            }
            if (!stable) {
                continue;
            }
            double u = load * scale / servers;
            assertThat(waitingPerSecond).as("trial %d", trial).isGreaterThanOrEqualTo(ServerQueue.samplingWaitRateFloor(u, servers) * (1 - 1e-12));
            checked++;
        }
        assertThat(checked).as("stable trials checked").isGreaterThan(200);
    }

    @Test
    void samplingWaitRateFloor_overloadedIsInfinite_badArgumentsNamed() {
        assertThat(ServerQueue.samplingWaitRateFloor(1.0, 3)).isInfinite();
        assertThat(ServerQueue.samplingWaitRateFloor(0, 3)).isZero();
        assertThatThrownBy(() -> ServerQueue.samplingWaitRateFloor(Double.NaN, 3)).hasMessageContaining("utilisation u (NaN)");
        assertThatThrownBy(() -> ServerQueue.samplingWaitRateFloor(0.5, 0)).hasMessageContaining("servers (0)");
    }
}
