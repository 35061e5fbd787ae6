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
        WarmFirstServers servers = WarmFirstServers.of(List.of(server("s0", true, 3, "m"), server("s1", true, 2, "m"),
                server("s2", false, 0, "m"), server("s3", true, 0)), 3);
        assertThat(servers.upCount()).isEqualTo(3);
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 0; i < 200; i++) {
            assertThat(servers.id(servers.pick("m", rng))).isEqualTo("s1");
        }
    }

    @Test
    void pick_nothingWarm_reachesEveryUpServerAndNoDownOne() {
        WarmFirstServers servers = WarmFirstServers.of(List.of(server("a", true, 0), server("b", true, 9, "m"),
                server("c", true, 0), server("d", false, 0)), 3);
        SplittableRandom rng = new SplittableRandom(2);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            seen.add(servers.id(servers.pick("m", rng)));
        }
        assertThat(seen).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void pickOther_warmFirstThenDistinct_untilEveryServerIsTaken() {
        WarmFirstServers servers = WarmFirstServers.of(List.of(server("s0", true, 0, "m"), server("s1", true, 0),
                server("s2", true, 0), server("s3", true, 0, "m")), 3);
        SplittableRandom rng = new SplittableRandom(3);
        for (int round = 0; round < 100; round++) {
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
