package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class PickIndexTest {
    private static final int TARGET = 2;
    private final LoadForecast forecast = new LoadForecast(64);
    private final WarmPools pools = new WarmPools();
    private final UpServers up = new UpServers();
    private final PickIndex index = new PickIndex(forecast, pools, up, TARGET);

    /** {@code servers} up servers in warm pool 0, each reported at 0 s with the given count and work. */
    private void servers(int[] ongoing, double[] work) {
        for (int s = 0; s < ongoing.length; s++) {
            forecast.addServer(1);
            pools.addServer();
            up.addServer();
            index.addServer(s);
            up.set(s, true);
            index.present(s);
            index.setPools(s, new int[] {0});
            forecast.report(s, ongoing[s], work[s], 0);
            index.reported(s);
        }
    }

    /**
     * Server 0 is at the target until it drains at 0.1 s: a warm pick parks it and takes server 1; a pick of the
     * least backlog anywhere still sees it; at 0.1 s it returns to its pool, drained, and is the least again.
     */
    @Test
    void leastWarm_parksAServerAtTheTarget_untilItIsPredictedUnder() {
        servers(new int[] {2, 1, 0}, new double[] {0.1, 0.5, 1.0});
        assertThat(index.leastWarm(0, true, ServerLedger.Taken.NONE, 0)).isEqualTo(1);
        assertThat(index.leastWarm(0, true, s -> s == 1, 0)).as("0 parked, 1 taken").isEqualTo(2);
        assertThat(index.leastBacklog(true, ServerLedger.Taken.NONE, 0)).as("parked is still up").isEqualTo(0);
        index.unpark(0.05);
        assertThat(index.leastWarm(0, true, ServerLedger.Taken.NONE, 0.05)).as("still parked").isEqualTo(1);
        index.unpark(0.1);
        assertThat(index.leastWarm(0, true, ServerLedger.Taken.NONE, 0.1)).isEqualTo(0);
    }

    @Test
    void ownership_splitsThePoolsTrees() {
        servers(new int[] {0, 0, 0}, new double[] {0.3, 0.1, 0.2});
        index.setOwned(1, false);
        assertThat(index.owns(1)).isFalse();
        assertThat(index.leastWarm(0, true, ServerLedger.Taken.NONE, 0)).isEqualTo(2);
        assertThat(index.leastWarm(0, false, ServerLedger.Taken.NONE, 0)).isEqualTo(1);
        assertThat(index.leastBacklog(false, s -> s == 1, 0)).as("no other's server left").isEqualTo(-1);
        index.setOwned(1, true);
        assertThat(index.leastWarm(0, true, ServerLedger.Taken.NONE, 0)).isEqualTo(1);
    }

    @Test
    void reranked_afterARequest_andDownServersLeaveEveryTree() {
        servers(new int[] {0, 0}, new double[] {0.1, 0.2});
        forecast.assign(0, 1.0, 0);
        index.reranked(0);
        assertThat(index.leastWarm(0, true, ServerLedger.Taken.NONE, 0)).isEqualTo(1);
        up.set(1, false);
        index.present(1);
        assertThat(index.leastWarm(0, true, ServerLedger.Taken.NONE, 0)).isEqualTo(0);
        assertThat(index.leastBacklog(true, s -> s == 0, 0)).isEqualTo(-1);
    }

    @Test
    void next_isTheLeastOwnServerOfThePool_onceThePoolIsKept() {
        servers(new int[] {0, 0}, new double[] {0.2, 0.1});
        assertThat(index.next(0)).isEqualTo(1);
        assertThat(index.next(ServerLedger.NO_SERVER)).isEqualTo(-1);
        assertThat(index.next(5)).as("a pool nobody is in").isEqualTo(-1);
        assertThat(index.next(ServerLedger.EVERY_SERVER)).as("not kept yet").isEqualTo(-1);
        index.keepEveryServer();
        assertThat(index.next(ServerLedger.EVERY_SERVER)).isEqualTo(1);
        assertThat(index.touch(5, 0)).isZero();
    }
}
