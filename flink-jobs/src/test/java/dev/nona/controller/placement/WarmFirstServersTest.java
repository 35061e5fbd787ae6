package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ServerTelemetry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class WarmFirstServersTest {
    private static ServerTelemetry server(String id, boolean up, int ongoing, String... warm) {
        return ServerTelemetry.of(id, up, 1e12, ongoing, java.util.Arrays.stream(warm).map(m -> new CachedModel(m, 0)).toList(),
                null, 1);
    }

    @Test
    void pick_warmUnderTarget_onlyThoseServers() {
        // s0: warm but at the target (3), s1: warm and under it, s2: warm but down, s3: cold.
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 0; i < 50; i++) {
            WarmFirstServers servers = WarmFirstServers.of(List.of(server("s0", true, 3, "m"), server("s1", true, 2, "m"),
                    server("s2", false, 0, "m"), server("s3", true, 0)), 3);
            assertThat(servers.upCount()).isEqualTo(3);
            assertThat(servers.id(servers.pick("m", rng))).isEqualTo("s1");
        }
    }

    @Test
    void pick_countsItsOwnDecisions_untilTheServerReportsAgain() {
        ServerTelemetry s0 = server("s0", true, 1, "m");
        ServerTelemetry s1 = server("s1", true, 2, "m");
        ServerTelemetry cold = server("s2", true, 0);
        WarmFirstServers servers = WarmFirstServers.of(List.of(s0, s1, cold), 3);
        SplittableRandom rng = new SplittableRandom(2);
        // s0 has room for 2 more, s1 for 1: the first three requests fill them, whatever the order
        int[] hits = new int[3];
        for (int i = 0; i < 3; i++) {
            hits[servers.pick("m", rng)]++;
        }
        assertThat(hits).containsExactly(2, 1, 0);
        assertThat(servers.ongoing(0)).isEqualTo(3);
        assertThat(servers.ongoing(1)).isEqualTo(3);
        // every warm server at the target: the least loaded up server, the cold one, until it catches up
        assertThat(servers.id(servers.pick("m", rng))).isEqualTo("s2");
        assertThat(servers.id(servers.pick("m", rng))).isEqualTo("s2");
        assertThat(servers.id(servers.pick("m", rng))).isEqualTo("s2");
        assertThat(servers.ongoing(2)).isEqualTo(3);
        // a rebuild keeps the ledger of servers whose report did not change; s0 reports again (now 0 in flight)
        WarmFirstServers next = WarmFirstServers.of(List.of(server("s0", true, 0, "m"), s1, cold), 3, servers);
        assertThat(next.ongoing(0)).isZero();
        assertThat(next.ongoing(1)).isEqualTo(3);
        assertThat(next.ongoing(2)).isEqualTo(3);
        assertThat(next.id(next.pick("m", rng))).isEqualTo("s0");
    }

    @Test
    void pick_nothingWarm_spreadsOverTheLeastLoadedUpServers() {
        WarmFirstServers servers = WarmFirstServers.of(List.of(server("a", true, 0), server("b", true, 9, "m"),
                server("c", true, 0), server("d", false, 0)), 3);
        SplittableRandom rng = new SplittableRandom(2);
        int[] hits = new int[3];
        for (int i = 0; i < 18; i++) {
            hits[servers.pick("x", rng)]++;
        }
        // a and c take turns until they reach b's 9
        assertThat(hits).containsExactly(9, 0, 9);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            seen.add(servers.id(servers.pick("x", rng)));
        }
        assertThat(seen).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void pickOther_warmFirstThenDistinct_untilEveryServerIsTaken() {
        SplittableRandom rng = new SplittableRandom(3);
        for (int round = 0; round < 100; round++) {
            WarmFirstServers servers = WarmFirstServers.of(List.of(server("s0", true, 0, "m"), server("s1", true, 0),
                    server("s2", true, 0), server("s3", true, 0, "m")), 3);
            int[] taken = new int[6];
            int[] warm = servers.warm("m");
            taken[0] = servers.pick("m", rng);
            taken[1] = servers.pickOther(warm, taken, 1, rng);
            assertThat(Set.of(servers.id(taken[0]), servers.id(taken[1]))).containsExactlyInAnyOrder("s0", "s3");
            for (int n = 2; n < 4; n++) {
                taken[n] = servers.pickOther(warm, taken, n, rng);
            }
            assertThat(java.util.Arrays.stream(taken, 0, 4).distinct().count()).isEqualTo(4);
            taken[4] = servers.pickOther(warm, taken, 4, rng);
            assertThat(taken[4]).isBetween(0, 3);
        }
    }

    @Test
    void pick_noServerUp_isAnError() {
        WarmFirstServers servers = WarmFirstServers.of(List.of(server("s0", false, 0, "m")), 3);
        assertThat(servers.upCount()).isZero();
        assertThatThrownBy(() -> servers.pick("x", new SplittableRandom(4))).hasMessageContaining("no server is up");
    }
}
