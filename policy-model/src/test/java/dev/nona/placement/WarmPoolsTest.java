package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class WarmPoolsTest {
    @Test
    void inPool_noneOneOrSeveralPools_andAfterAChange() {
        WarmPools pools = new WarmPools();
        for (int s = 0; s < 3; s++) {
            pools.addServer();
        }
        pools.set(1, new int[] {4});
        pools.set(2, new int[] {0, 4, 7});
        for (int pool : new int[] {-2, -1, 0, 3, 4, 7}) {
            assertThat(pools.inPool(0, pool)).as("no pool, %d", pool).isFalse();
            assertThat(pools.inPool(1, pool)).as("pool 4, %d", pool).isEqualTo(pool == 4);
            assertThat(pools.inPool(2, pool)).as("pools 0, 4, 7, %d", pool)
                    .isEqualTo(pool == 0 || pool == 4 || pool == 7);
        }
        pools.set(2, new int[] {3});
        pools.set(1, new int[0]);
        assertThat(pools.inPool(2, 3)).isTrue();
        assertThat(pools.inPool(2, 4)).isFalse();
        assertThat(pools.inPool(1, 4)).isFalse();
    }

    @Test
    void of_isNullForNoPool_andACopyOfTheGivenPools() {
        WarmPools pools = new WarmPools();
        pools.addServer();
        pools.addServer();
        int[] given = {2, 5};
        pools.set(1, given);
        given[0] = 9;
        assertThat(pools.of(0)).isNull();
        assertThat(pools.of(1)).containsExactly(2, 5);
        pools.set(1, new int[0]);
        assertThat(pools.of(1)).isNull();
    }
}
