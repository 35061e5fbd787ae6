package dev.nona.topics.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.topics.Topics;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class DeadLetterTest {

    @Test
    void of_rejectedRecord_keepsRawBytesSourceAndReason() {
        byte[] raw = "{\"schemaVersion\":9}".getBytes(StandardCharsets.UTF_8);

        DeadLetter letter = DeadLetter.of(raw, "inference-requests", 3, 1234L, "field 'schemaVersion' (9) is not supported",
                1_700_000_000_000L);

        assertThat(letter.schemaVersion()).isEqualTo(SchemaVersions.CURRENT);
        assertThat(letter.sourceTopic()).isEqualTo("inference-requests");
        assertThat(letter.partition()).isEqualTo(3);
        assertThat(letter.offset()).isEqualTo(1234L);
        assertThat(letter.reason()).isEqualTo("field 'schemaVersion' (9) is not supported");
        assertThat(letter.time()).isEqualTo(1_700_000_000_000L);
        assertThat(letter.rawBase64()).isEqualTo(Base64.getEncoder().encodeToString(raw));
        assertThat(letter.raw()).isEqualTo(raw);
        assertThat(letter.rawSizeBytes()).isEqualTo(raw.length);
        assertThat(letter.truncated()).isFalse();
    }

    @Test
    void of_binaryGarbage_survivesJsonRoundTripByteForByte() {
        byte[] raw = new byte[4096];
        new Random(42).nextBytes(raw);
        JsonSerde<DeadLetter> serde = JsonSerde.forTopic(Topics.DEAD_LETTERS);

        Parsed<DeadLetter> back = serde.parse(serde.serialize(DeadLetter.of(raw, "cluster-telemetry", 0, 7L, "malformed", 1L)));

        assertThat(back.value().raw()).isEqualTo(raw);
    }

    @Test
    void of_valueOverCap_keepsPrefixAndOriginalSize() {
        byte[] raw = new byte[100];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = (byte) i;
        }

        DeadLetter letter = DeadLetter.of(raw, "model-catalog", 0, 0L, "record size (100 bytes) exceeds the limit", 1L, 10);

        assertThat(letter.truncated()).isTrue();
        assertThat(letter.rawSizeBytes()).isEqualTo(100);
        assertThat(letter.raw()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void of_defaultCap_deadLetterOfAnOversizedRecordFitsKafkasDefaultRequestSize() {
        byte[] raw = new byte[(1 << 20) + 1];
        Arrays.fill(raw, (byte) 'x');
        String reason = "record size (1048577 bytes) exceeds the limit (1048576 bytes)";

        DeadLetter letter = DeadLetter.of(raw, "inference-requests", 0, 0L, reason, 1L);
        byte[] json = JsonSerde.forTopic(Topics.DEAD_LETTERS).serialize(letter);

        assertThat(letter.truncated()).isTrue();
        assertThat(letter.raw()).hasSize(DeadLetter.DEFAULT_MAX_RAW_BYTES);
        assertThat(json.length).isLessThan(1 << 20);
    }

    @Test
    void of_nullValue_recordsTombstoneWithoutRaw() {
        DeadLetter letter = DeadLetter.of(null, "inference-requests", 1, 2L, "value is null", 1L);

        assertThat(letter.rawBase64()).isNull();
        assertThat(letter.raw()).isNull();
        assertThat(letter.rawSizeBytes()).isZero();
        String json = new String(JsonSerde.forTopic(Topics.DEAD_LETTERS).serialize(letter), StandardCharsets.UTF_8);
        assertThat(json).doesNotContain("rawBase64");
    }

    @Test
    void of_unknownPosition_acceptsMinusOne_rejectsBelow() {
        assertThat(DeadLetter.of(new byte[0], "t", -1, -1L, "r", 0L).partition()).isEqualTo(-1);

        assertThatThrownBy(() -> DeadLetter.of(new byte[0], "t", -2, 0L, "r", 0L))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("field 'partition' (-2) must be >= 0, or -1 when unknown");
        assertThatThrownBy(() -> DeadLetter.of(new byte[0], "t", 0, -5L, "r", 0L))
                .hasMessage("field 'offset' (-5) must be >= 0, or -1 when unknown");
    }

    @Test
    void constructor_blankReasonOrTopic_isRejected() {
        assertThatThrownBy(() -> DeadLetter.of(new byte[1], "t", 0, 0L, " ", 0L))
                .hasMessage("field 'reason' (' ') must not be blank");
        assertThatThrownBy(() -> DeadLetter.of(new byte[1], null, 0, 0L, "r", 0L))
                .hasMessage("field 'sourceTopic' is missing (null)");
    }

    @Test
    void parse_rawNotBase64_isRejected() {
        String json = "{\"schemaVersion\":1,\"sourceTopic\":\"t\",\"partition\":0,\"offset\":0,\"reason\":\"r\",\"time\":0,"
                + "\"rawBase64\":\"@@@\",\"rawSizeBytes\":3,\"truncated\":false}";

        assertThat(JsonSerde.forTopic(Topics.DEAD_LETTERS).parse(json).reason()).startsWith("field 'rawBase64' is not base64");
    }
}
