package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.Topics;
import dev.nona.topics.serde.DagCounts;
import dev.nona.topics.serde.JsonSerde;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The malformed records of {@code bench latency --bad-input-rate}: the mix, and that each one is rejected. */
final class BadInputTest {
    private final BadInput input = new BadInput();

    @Test
    void cycle_holdsEveryKindInItsShare() {
        Map<BadInput.Kind, Integer> counts = new EnumMap<>(BadInput.Kind.class);
        for (int i = 0; i < BadInput.CYCLE; i++) {
            counts.merge(BadInput.kind(i), 1, Integer::sum);
        }
        assertThat(counts).containsEntry(BadInput.Kind.OVERSIZED, 1).containsEntry(BadInput.Kind.HUGE_DAG, 1)
                .containsEntry(BadInput.Kind.LARGE_FIELD, 4).containsEntry(BadInput.Kind.DEEP, 47)
                .containsEntry(BadInput.Kind.BINARY, 47);
    }

    @Test
    void everyRequestKind_isRejectedByTheRequestSerde() {
        JsonSerde<?> requests = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
        for (int i = 0; i < BadInput.CYCLE; i++) {
            BadInput.Bad bad = input.record(i);
            if (bad.topic().equals(Topics.INFERENCE_REQUESTS.name())) {
                assertThat(requests.parse(bad.value()).ok()).as("%s", bad.kind()).isFalse();
            }
        }
    }

    @Test
    void hugeDag_isACatalogEntryOf30000Tasks() {
        BadInput.Bad dag = input.record(1);
        assertThat(dag.topic()).isEqualTo(Topics.MODEL_CATALOG.name());
        assertThat(DagCounts.scan(dag.value())).contains(new DagCounts("bad-dag", 30_000, 29_999));
    }
}
