package dev.nona.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.nona.sim.SimCluster;
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

/**
 * Memory grows with the jobs in flight, never with the jobs simulated; a cluster too large for the heap is an error
 * naming it, asked before its arrays are allocated.
 */
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

    @Test
    void aClusterTooLargeForTheHeap_isAnErrorNamingItsServers_beforeAnyArrayOfThem() {
        SimWorkload w = new SimWorkload(new SimCluster(2_000_000_000, 1e9, 1e10), List.of(TestingWorkloads.forkJoin(1)));

        // 2e9 servers at 400 bytes each: 800 GB, beyond any test JVM's heap
        assertThatThrownBy(() -> new Simulator(w, new RandomPolicy(new SplittableRandom(1)), "random",
                new SimConfig(10, 0, 1, Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the simulated cluster's 2000000000 servers need about 762940 MiB of heap")
                .hasMessageContaining("NONA_JAVA_OPTS=-Xmx");
    }

    @Test
    void modelCachesTooLargeForTheHeap_areAnErrorNamingServersAndTasks_beforeTheirArrays() {
        double[] memory = new double[100_000];
        java.util.Arrays.fill(memory, 1e9);
        PartCaches caches = new PartCaches(memory, null);
        // 100,000 servers x 21,000 tasks x 18 bytes: 37.8 GB, under the int index limit of the arrays
        assumeThat(Runtime.getRuntime().maxMemory()).as("a heap below the caches' 37.8 GB").isLessThan(30L << 30);

        assertThatThrownBy(() -> caches.addModel("wide", new double[21_000]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("model caches for 100000 servers and 21000 tasks need about 36049 MiB of heap");
        assertThat(caches.addModel("narrow", new double[] {1, 2})).as("a model that fits is still added").isZero();
    }
}
