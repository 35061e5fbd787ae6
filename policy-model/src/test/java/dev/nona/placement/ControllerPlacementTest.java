package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class ControllerPlacementTest {
    private static final List<String> TASKS = List.of("a1", "a2", "b", "c", "d", "e", "f", "g");
    private static final long T = 1_000;

    /** Every task 1e9 ops: 1 s on a server of 1e9 ops/s. */
    private static Map<String, Double> oneSecondEach() {
        Map<String, Double> ops = new HashMap<>();
        TASKS.forEach(t -> ops.put(t, 1e9));
        return ops;
    }

    /** s0..s3 warm for m and idle; "cold" idle and holding nothing. */
    private static LiveServers servers() {
        LiveServers servers = new LiveServers(3, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        for (int s = 0; s < 4; s++) {
            servers.report("s" + s, true, 1e9, 0, 0.0, List.of("m"), T, 0);
        }
        servers.report("cold", true, 1e9, 0, 0.0, List.of(), T, 0);
        return servers;
    }

    @Test
    void place_followsTheTable_warmFirst_andRecordsTheRequestInTheLedger() {
        ControllerPlacement placement = ControllerPlacement.of(new PlacementSampler(PlacementSamplerTest.table(5)), "m",
                oneSecondEach());
        assertThat(placement.tasks()).isEqualTo(TASKS);
        assertThat(placement.distributed()).isTrue();
        assertThat(placement.predictedJctSeconds()).isEqualTo(0.05);
        LiveServers servers = servers();
        int[] out = placement.place(servers, T, new SplittableRandom(1));
        int a1 = out[0], a2 = out[1], b = out[2], c = out[3], d = out[4];
        assertThat(a1).isEqualTo(a2).isEqualTo(b);
        assertThat(c).isNotEqualTo(b);
        assertThat(d).isEqualTo(c);
        for (int s : out) {
            assertThat(servers.id(s)).as("warm servers under the target come first").isNotEqualTo("cold");
        }
        // the ledger: one request on each server used, with 1 s per task it runs there (a1, a2, b: at least 3 s)
        int[] seconds = new int[5];
        for (int s : out) {
            seconds[s]++;
        }
        for (int s = 0; s < 5; s++) {
            assertThat(servers.backlogSeconds(s, T)).isCloseTo(seconds[s], within(1e-9));
            assertThat(servers.ongoing(s, T)).isEqualTo(seconds[s] > 0 ? 1 : 0);
        }
        assertThat(seconds[a1]).isGreaterThanOrEqualTo(3);
        // the next request's source avoids the busy servers: an idle warm one, if any is left
        int idleWarm = -1;
        for (int s = 0; s < 4; s++) {
            idleWarm = seconds[s] == 0 ? s : idleWarm;
        }
        int[] next = placement.place(servers, T, new SplittableRandom(2));
        if (idleWarm >= 0) {
            assertThat(seconds[next[0]]).isZero();
        }
    }

    @Test
    void choose_placesWithoutRecording() {
        ControllerPlacement placement = ControllerPlacement.of(new PlacementSampler(PlacementSamplerTest.table(5)), "m",
                oneSecondEach());
        LiveServers servers = servers();
        int[] out = placement.choose(servers, T, new SplittableRandom(3));
        for (int s : out) {
            assertThat(servers.ongoing(s, T)).isZero();
        }
    }

    @Test
    void local_putsTheWholeRequestOnOneWarmServer_andRecordsItsWork() {
        ControllerPlacement placement = ControllerPlacement.local("m", TASKS, 8e9);
        assertThat(placement.distributed()).isFalse();
        LiveServers servers = servers();
        SplittableRandom rng = new SplittableRandom(4);
        int[] used = new int[5];
        for (int i = 0; i < 4; i++) {
            int[] out = placement.place(servers, T, rng);
            for (int t = 1; t < TASKS.size(); t++) {
                assertThat(out[t]).isEqualTo(out[0]);
            }
            used[out[0]]++;
            assertThat(servers.backlogSeconds(out[0], T)).isCloseTo(8.0, within(1e-9));
        }
        assertThat(used).as("least backlog first: each warm server once, the cold one never").containsExactly(1, 1, 1, 1, 0);
    }

    @Test
    void badArguments_areNamed() {
        PlacementSampler sampler = new PlacementSampler(PlacementSamplerTest.table(5));
        assertThatThrownBy(() -> ControllerPlacement.of(sampler, "x", oneSecondEach())).hasMessageContaining("model 'x'");
        Map<String, Double> missing = oneSecondEach();
        missing.remove("e");
        assertThatThrownBy(() -> ControllerPlacement.of(sampler, "m", missing)).hasMessageContaining("task 'e'");
        assertThatThrownBy(() -> ControllerPlacement.local("m", TASKS, Double.NaN)).hasMessageContaining("(NaN)");
        LiveServers none = new LiveServers(3, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        assertThatThrownBy(() -> ControllerPlacement.local("m", TASKS, 1).place(none, T, new SplittableRandom(5)))
                .hasMessageContaining("no server is up");
    }
}
