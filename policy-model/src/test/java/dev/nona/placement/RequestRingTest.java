package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class RequestRingTest {
    @Test
    void grows_keepingSendOrder_acrossTheWrap() {
        RequestRing ring = new RequestRing();
        for (int i = 0; i < 3; i++) {
            ring.add(i, 10 + i);
        }
        ring.dropOldest();
        ring.dropOldest();
        for (int i = 3; i < 12; i++) { // wraps, then grows
            ring.add(i, 10 + i);
        }
        assertThat(ring.size()).isEqualTo(10);
        assertThat(ring.capacity()).isEqualTo(16);
        for (int i = 0; i < 10; i++) {
            assertThat(ring.sent(i)).isEqualTo(2 + i);
            assertThat(ring.work(i)).isEqualTo(12 + i);
        }
    }

    @Test
    void dropSentBy_dropsTheRequestsSentAtOrBefore() {
        RequestRing ring = new RequestRing();
        ring.add(1.0, 0.1);
        ring.add(2.0, 0.2);
        ring.add(2.0, 0.3);
        ring.add(3.0, 0.4);
        ring.dropSentBy(2.0);
        assertThat(ring.size()).isEqualTo(1);
        assertThat(ring.sent(0)).isEqualTo(3.0);
        ring.dropSentBy(5.0);
        assertThat(ring.size()).isZero();
        ring.add(6.0, 0.5);
        ring.clear();
        assertThat(ring.size()).isZero();
    }
}
