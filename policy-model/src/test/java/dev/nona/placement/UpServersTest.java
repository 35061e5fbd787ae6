package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class UpServersTest {
    private static UpServers servers(int n) {
        UpServers up = new UpServers();
        for (int s = 0; s < n; s++) {
            up.addServer();
        }
        return up;
    }

    @Test
    void set_changesOnlyWhenTheFlagDoes_andCounts() {
        UpServers up = servers(3);
        assertThat(up.count()).as("new servers are down").isZero();
        assertThat(up.set(1, true)).isTrue();
        assertThat(up.set(1, true)).isFalse();
        assertThat(up.set(2, true)).isTrue();
        assertThat(up.set(1, false)).isTrue();
        assertThat(up.set(0, false)).isFalse();
        assertThat(up.count()).isEqualTo(1);
        assertThat(up.isUp(2)).isTrue();
        assertThat(up.isUp(1)).isFalse();
    }

    @Test
    void any_isUniformOverTheUpServers() {
        UpServers up = servers(5);
        for (int s : new int[] {4, 0, 3, 1}) {
            up.set(s, true);
        }
        up.set(0, false);
        SplittableRandom rng = new SplittableRandom(7);
        int[] hits = new int[5];
        for (int i = 0; i < 3_000; i++) {
            hits[up.any(ServerLedger.Taken.NONE, rng)]++;
        }
        assertThat(hits[0]).isZero();
        assertThat(hits[2]).isZero();
        for (int s : new int[] {1, 3, 4}) {
            assertThat(hits[s]).as("server %d", s).isBetween(850, 1150);
        }
    }

    @Test
    void any_skipsExcludedServers_orNoneWhenAllAre() {
        UpServers up = servers(4);
        for (int s = 0; s < 4; s++) {
            up.set(s, true);
        }
        SplittableRandom rng = new SplittableRandom(3);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            seen.add(up.any(excluding(0, 2), rng));
        }
        assertThat(seen).containsExactlyInAnyOrder(1, 3);
        assertThat(up.any(excluding(0, 1, 2, 3), rng)).isEqualTo(-1);
    }

    private static ServerLedger.Taken excluding(int... servers) {
        Set<Integer> out = new HashSet<>();
        for (int s : servers) {
            out.add(s);
        }
        return new ServerLedger.Taken() {
            @Override
            public boolean taken(int server) {
                return true;
            }

            @Override
            public boolean excluded(int server) {
                return out.contains(server);
            }

            @Override
            public boolean excludes() {
                return true;
            }
        };
    }
}
