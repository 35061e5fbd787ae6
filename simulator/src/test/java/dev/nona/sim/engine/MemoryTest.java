package dev.nona.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.policy.baseline.RandomPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Memory grows with the jobs in flight, never with the jobs simulated. */
final class MemoryTest {
    @Test
    void run_tenMillionJobs_fitInA24MegabyteHeap() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx24m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                MemoryProbe.class.getName(), "10000000").redirectErrorStream(true).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("probe finished").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.exitValue()).as("probe output: %s", out).isZero();
        String[] fields = out.split(" ");
        assertThat(Long.parseLong(fields[0])).isEqualTo(10_000_000L);
        assertThat(Integer.parseInt(fields[1])).as("job slots").isLessThanOrEqualTo(4096);
    }

    @Test
    void run_hundredThousandVersusMillion_sameJobSlotCapacity() {
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(8), List.of(TestingWorkloads.forkJoin(1).withBitsScaled(1e-4))).withLoad(0.7);
        Simulator small = new Simulator(w, new RandomPolicy(new SplittableRandom(1)), "random", new SimConfig(100_000, 0, 1, Long.MAX_VALUE));
        small.run();
        Simulator large = new Simulator(w, new RandomPolicy(new SplittableRandom(1)), "random", new SimConfig(1_000_000, 0, 1, Long.MAX_VALUE));
        SimResult r = large.run();
        assertThat(large.jobSlotCapacity()).isLessThanOrEqualTo(2 * small.jobSlotCapacity());
        assertThat(large.jobSlotCapacity()).isLessThanOrEqualTo(2 * Integer.highestOneBit(r.maxJobsInFlight()) * 2);
    }
}
