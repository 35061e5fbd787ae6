package dev.nona.controller.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

final class DeadLetterCountersTest {
    @Test
    void slug_blanksQuotesAndPunctuation_keepsWords() {
        assertThat(DeadLetterCounters.slug("model '_' is not in the model catalog"))
                .isEqualTo("model_is_not_in_the_model_catalog");
        assertThat(DeadLetterCounters.slug("field 'requestId' is missing")).isEqualTo("field_requestid_is_missing");
    }

    @Test
    void slug_longReason_cutAtMaxLength_withoutTrailingUnderscore() {
        String slug = DeadLetterCounters.slug("no server is up (no telemetry yet, or every server is down) and the "
                + "startup buffer (N requests) is full");
        assertThat(slug).hasSizeLessThanOrEqualTo(DeadLetterCounters.MAX_SLUG).doesNotEndWith("_")
                .startsWith("no_server_is_up_no_telemetry_yet");
    }

    @Test
    void slug_nothingLeft_isUnknown() {
        assertThat(DeadLetterCounters.slug("'_': \"_\"")).isEqualTo("unknown");
    }

    @Test
    void inc_countsPerTopicAndClass_andBeyondTheCapAsOther() {
        TestingMetricGroup group = new TestingMetricGroup("");
        DeadLetterCounters counters = new DeadLetterCounters(group);
        counters.inc("t", "model '_' is not in the model catalog");
        counters.inc("t", "model '_' is not in the model catalog");
        counters.inc("u", "field '_' is missing");
        assertThat(group.counts()).containsEntry("topic=t/reason=model_is_not_in_the_model_catalog/deadLetters", 2L)
                .containsEntry("topic=u/reason=field_is_missing/deadLetters", 1L);
        for (int i = 0; i < DeadLetterCounters.MAX_CLASSES + 5; i++) {
            counters.inc("t", "reason " + (char) ('a' + i % 26) + (char) ('a' + i / 26));
        }
        assertThat(group.counts()).hasSize(DeadLetterCounters.MAX_CLASSES + 1)
                .containsEntry("topic=t/reason=other/deadLetters", 7L);
    }

    /** Records counters by their group path (key=value/...) and name. */
    private static final class TestingMetricGroup extends UnregisteredMetricsGroup {
        private final String path;
        private final Map<String, Counter> counters;

        TestingMetricGroup(String path) {
            this(path, new TreeMap<>());
        }

        private TestingMetricGroup(String path, Map<String, Counter> counters) {
            this.path = path;
            this.counters = counters;
        }

        @Override
        public MetricGroup addGroup(String key, String value) {
            return new TestingMetricGroup(path + key + "=" + value + "/", counters);
        }

        @Override
        public Counter counter(String name) {
            return counter(name, new SimpleCounter());
        }

        @Override
        public <C extends Counter> C counter(String name, C counter) {
            counters.put(path + name, counter);
            return counter;
        }

        Map<String, Long> counts() {
            Map<String, Long> out = new TreeMap<>();
            counters.forEach((k, c) -> out.put(k, c.getCount()));
            return out;
        }
    }
}
