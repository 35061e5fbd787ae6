package dev.nona.controller.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class RateLimitedCountsTest {
    @Test
    void firstOccurrence_isSummarisedAtOnce_thenAtMostOncePerInterval() {
        AtomicLong now = new AtomicLong(1_000_000);
        RateLimitedCounts counts = new RateLimitedCounts(10_000, now::get);
        assertThat(counts.add("a")).isEqualTo(Map.of("a", 1L));
        for (int i = 0; i < 1000; i++) {
            now.addAndGet(9);
            assertThat(counts.add(i % 2 == 0 ? "a" : "b")).isNull();
        }
        now.set(1_010_000);
        assertThat(counts.add("b")).isEqualTo(Map.of("a", 500L, "b", 501L));
        assertThat(counts.drain()).isEmpty();
        assertThat(counts.total()).isEqualTo(1002);
    }

    @Test
    void reasonClass_groupsReasonsThatDifferOnlyInValues() {
        assertThat(DeadLetterLog.reasonClass("model 'nosuchmodel' is not in the model catalog"))
                .isEqualTo(DeadLetterLog.reasonClass("model 'other' is not in the model catalog"));
        assertThat(DeadLetterLog.reasonClass("malformed JSON: Unexpected character ('n' (code 110)) at line 1"))
                .isEqualTo("malformed JSON");
        assertThat(DeadLetterLog.reasonClass("field 'payloadBytes' (-5) must be >= 0")).isEqualTo("field '_' (-N) must be >= N");
    }
}
