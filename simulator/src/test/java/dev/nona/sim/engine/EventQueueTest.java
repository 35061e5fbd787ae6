package dev.nona.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class EventQueueTest {
    @Test
    void pop_randomTimes_comeOutSortedAndTiesInInsertionOrder() {
        EventQueue q = new EventQueue();
        Random r = new Random(3);
        List<double[]> pushed = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            double t = r.nextInt(500);
            q.push(t, i);
            pushed.add(new double[] {t, i});
        }
        pushed.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
        for (double[] expected : pushed) {
            assertThat(q.peekTime()).isEqualTo(expected[0]);
            assertThat(q.pop()).isEqualTo((long) expected[1]);
        }
        assertThat(q.isEmpty()).isTrue();
    }
}
