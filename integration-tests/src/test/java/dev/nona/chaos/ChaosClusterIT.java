package dev.nona.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos run on a multi-process Flink cluster with ZooKeeper high availability ({@link ChaosOnCluster}): the
 * controller job (its shaded jar, submitted over REST) on two JobManagers (a leader and a standby) and two
 * TaskManagers, a real ZooKeeper server and the project's broker, each its own process; a seeded fault schedule
 * with every kind the cluster has (the TaskManager running the job and the leading JobManager killed with
 * {@code kill -9}, the broker killed and restarted, a telemetry stall, a malformed burst, a server silent for a
 * while and one for good) over the traffic, and no invariant broken: every request decided, no stage on a silent
 * server past the timeout + 1 s, table versions never back, no valid request dead-lettered. Asserts the invariants,
 * not timings.
 *
 * <p>The short form (CI): {@value #SHORT_SECONDS} s of traffic at {@value #SHORT_RATE} requests/s. The long form:
 * {@code -Dnona.chaos.long=true}, {@value #LONG_SECONDS} s at 1,000 requests/s. The seed is {@link #CI_SEED} unless
 * {@code -Dnona.chaos.seed=S} (or {@code random}) says otherwise, and is printed first ({@code -Dnona.chaos.rate=R}
 * sets the rate). A failed run keeps its work directory (the Flink processes', ZooKeeper's and the broker's logs).
 */
final class ChaosClusterIT {
    static final int SHORT_SECONDS = 180;
    static final int SHORT_RATE = 1000;
    static final int LONG_SECONDS = 300;
    /** The seed CI replays: its {@value #SHORT_SECONDS} s schedule holds every kind the cluster has, one TaskManager
     *  kill and one JobManager kill among them. */
    static final long CI_SEED = 1L;

    @Test
    void faultSchedule_onAnHaCluster_everyKind_invariantsHold(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir)
            throws Exception {
        boolean longForm = Boolean.getBoolean("nona.chaos.long");
        String asked = System.getProperty("nona.chaos.seed", "" + CI_SEED);
        long seed = asked.equals("random") ? new SplittableRandom().nextLong() : Long.parseLong(asked);
        int seconds = longForm ? LONG_SECONDS : SHORT_SECONDS;
        double rate = Double.parseDouble(System.getProperty("nona.chaos.rate", longForm ? "1000" : "" + SHORT_RATE));
        System.out.println("ChaosClusterIT seed " + seed + " (replay: -Dnona.chaos.seed=" + seed
                + (longForm ? " -Dnona.chaos.long=true" : "") + "), " + seconds + " s at " + rate + " requests/s");
        Path jobJar = Path.of(System.getProperty("nona.job.jar"));
        ChaosResult r = ChaosOnCluster.run(new ChaosRun.Settings(seed, seconds, rate, 8, List.of("resnet18", "alexnet"),
                ChaosRun.controllerSettings(Map.of()), dir), jobJar, line -> System.out.println("chaos: " + line));
        String json = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(r.toJson());
        System.out.println(json);

        assertThat(r.injected()).as("faults injected, seed %d", seed)
                .extracting(i -> i.fault().kind()).containsAll(FaultKind.onCluster());
        assertThat(r.violations()).as("violations, seed %d: %s", seed, json).isEmpty();
        assertThat(r.held()).isTrue();
        assertThat(r.sent()).isEqualTo(Math.round(rate * seconds));
        assertThat(r.decided()).isEqualTo(r.sent());
        assertThat(r.validDeadLettered()).isZero();
        assertThat(r.controllerExits()).as("the controller job failed").isZero();
        assertThat(r.brokerStarts()).isGreaterThanOrEqualTo(2);
        assertThat(r.invariants().values()).allSatisfy(c -> assertThat(c.get("checked")).isPositive());
        // decisions resumed after every fault that ended while requests were still sent (resumeMillis: the time from
        // the fault's end to the first decision written after it; none only when nothing was left to decide)
        assertThat(r.resumptions()).as("resumptions, seed %d: %s", seed, json).hasSameSizeAs(r.injected())
                .filteredOn(x -> !x.afterTraffic())
                .allSatisfy(x -> assertThat(x.resumeMillis()).isNotNull().isPositive());
    }
}
