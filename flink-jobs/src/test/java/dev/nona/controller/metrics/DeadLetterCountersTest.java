package dev.nona.controller.metrics;

import static org.assertj.core.api.Assertions.assertThat;

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
}
