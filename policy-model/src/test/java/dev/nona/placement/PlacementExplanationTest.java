package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A worked example of {@link PlacementExplanation}: target 2, the table of {@link PlacementSamplerTest#table}
 * ($\tau_j$ = 0.05 s; subgraph 0 has one triplet, {b}|{c}; subgraph 1 draws {e,f} or {e}|{f} with 0.5 each), every
 * task 1 s of work, and this ledger at T:
 * <pre>
 * server  warm for m  reported ongoing  reported backlog
 * w0      yes         1                 0.5 s   warm, under the target: the source (a1, a2, b) goes here
 * w1      yes         2                 4.0 s   warm but at the target: not preferred
 * c0      no          3                 0.25 s  cold, at the target, least backlog of the rest: part {c} and the sink d
 * c1      no          0                 1.0 s   cold, idle, more backlog than c0
 * </pre>
 * So the request has two parts: w0 (warm, 0.5 s, 1 ongoing, target met) and c0 (cold, 0.25 s, 3 ongoing, target
 * not met), its grouping has probability 1 x 0.5, and its predicted JCT is 0.05 + max(0.5, 0.25) = 0.55 s.
 */
final class PlacementExplanationTest {
    private static final List<String> TASKS = List.of("a1", "a2", "b", "c", "d", "e", "f", "g");
    private static final long T = 10_000;

    private static LiveServers ledger() {
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.report("w0", true, 1e9, 1, 0.5, List.of("m"), T, 0);
        servers.report("w1", true, 1e9, 2, 4.0, List.of("m"), T, 0);
        servers.report("c0", true, 1e9, 3, 0.25, List.of("other"), T, 0);
        servers.report("c1", true, 1e9, 0, 1.0, List.of(), T, 0);
        return servers;
    }

    private static Map<String, Double> oneSecondEach() {
        Map<String, Double> ops = new HashMap<>();
        TASKS.forEach(t -> ops.put(t, 1e9));
        return ops;
    }

    @Test
    void place_workedExample_warmTargetMet_coldTargetNotMet() {
        ControllerPlacement placement = ControllerPlacement.of(new PlacementSampler(PlacementSamplerTest.table(4)), "m",
                oneSecondEach());
        for (int seed = 1; seed <= 8; seed++) {
            LiveServers servers = ledger();
            PlacementExplanation why = new PlacementExplanation();
            int[] out = placement.place(servers, T, new SplittableRandom(seed), why);
            int w0 = servers.indexOf("w0");
            int c0 = servers.indexOf("c0");
            assertThat(why.parts()).isEqualTo(2);
            assertThat(why.server(0)).isEqualTo(w0);
            assertThat(why.warm(0)).isTrue();
            assertThat(why.predictedBacklogSeconds(0)).isCloseTo(0.5, within(1e-12));
            assertThat(why.ongoingRequests(0)).isEqualTo(1);
            assertThat(why.targetMet(0)).isTrue();
            assertThat(why.server(1)).isEqualTo(c0);
            assertThat(why.warm(1)).as("c0 holds another model only").isFalse();
            assertThat(why.predictedBacklogSeconds(1)).isCloseTo(0.25, within(1e-12));
            assertThat(why.ongoingRequests(1)).isEqualTo(3);
            assertThat(why.targetMet(1)).isFalse();
            assertThat(why.target()).isEqualTo(2);

            boolean split = out[5] != out[6]; // choice 1 of subgraph 1: e on w0, f (with d and g) on c0
            assertThat(why.choiceCount()).isEqualTo(2);
            assertThat(why.choice(0)).isZero();
            assertThat(why.choice(1)).isEqualTo(split ? 1 : 0);
            assertThat(why.choiceProbability()).isCloseTo(0.5, within(1e-12));
            assertThat(why.stages(0)).isEqualTo(split ? 4 : 3);
            assertThat(why.stages(0) + why.stages(1)).isEqualTo(TASKS.size());
            for (int t = 0; t < TASKS.size(); t++) {
                assertThat(why.server(why.partOf(t))).isEqualTo(out[t]);
            }
            assertThat(why.tableJctSeconds()).isEqualTo(0.05);
            assertThat(why.waitSeconds()).isCloseTo(0.5, within(1e-12));
            assertThat(why.predictedJctSeconds()).isCloseTo(0.55, within(1e-12));
            // the facts are those at the pick: the ledger has the request's work since
            assertThat(servers.backlogSeconds(w0, T)).isCloseTo(0.5 + why.stages(0), within(1e-9));
        }
    }

    @Test
    void place_secondRequest_seesTheFirstInTheLedger() {
        ControllerPlacement placement = ControllerPlacement.of(new PlacementSampler(PlacementSamplerTest.table(4)), "m",
                oneSecondEach());
        LiveServers servers = ledger();
        PlacementExplanation why = new PlacementExplanation();
        placement.place(servers, T, new SplittableRandom(1), why);
        placement.place(servers, T, new SplittableRandom(2), why);
        // w0 and c0 now hold the first request; the warm servers are at the target: least backlog is c1 (1.0 s)
        assertThat(servers.id(why.server(0))).isEqualTo("c1");
        assertThat(why.warm(0)).isFalse();
        assertThat(why.ongoingRequests(0)).isZero();
        assertThat(why.targetMet(0)).isTrue();
        assertThat(why.predictedBacklogSeconds(0)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void local_onePart_computeOnTheChosenServerPlusItsBacklog() {
        ControllerPlacement placement = ControllerPlacement.local("m", TASKS, 8e9);
        LiveServers servers = ledger();
        PlacementExplanation why = new PlacementExplanation();
        placement.place(servers, T, new SplittableRandom(1), why);
        assertThat(why.parts()).isEqualTo(1);
        assertThat(servers.id(why.server(0))).isEqualTo("w0");
        assertThat(why.stages(0)).isEqualTo(8);
        assertThat(why.warm(0)).isTrue();
        assertThat(why.targetMet(0)).isTrue();
        assertThat(why.choiceCount()).isZero();
        assertThat(why.choiceProbability()).isEqualTo(1.0);
        assertThat(why.tableJctSeconds()).isCloseTo(8.0, within(1e-12)); // 8e9 ops at 1e9 ops/s
        assertThat(why.predictedJctSeconds()).isCloseTo(8.5, within(1e-12));
    }
}
