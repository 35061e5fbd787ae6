package dev.nona.controller.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.DeadLetter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

final class RequestParserTest {
    private final RequestParser parser = new RequestParser("inference-requests");

    @Test
    void parse_validRequest_isARequest() {
        byte[] value = "{\"schemaVersion\":1,\"id\":\"r-1\",\"model\":\"m\",\"tenant\":\"t\",\"eventTime\":12}"
                .getBytes(StandardCharsets.UTF_8);
        RequestRecord r = parser.parse(value, 3, 7L);
        assertThat(r.rejected()).isNull();
        assertThat(r.request().id()).isEqualTo("r-1");
    }

    @Test
    void parse_fiveMegabyteValue_isADeadLetterKeeping4KiBOfIt() {
        byte[] value = new byte[5 << 20];
        Arrays.fill(value, (byte) '{');
        DeadLetter d = parser.parse(value, 3, 7L).rejected();
        assertThat(d.reason()).isEqualTo("record size (5242880 bytes) exceeds the limit (65536 bytes)");
        assertThat(d.rawSizeBytes()).isEqualTo(5 << 20);
        assertThat(d.truncated()).isTrue();
        assertThat(d.raw()).hasSize(4 << 10);
        assertThat(d.partition()).isEqualTo(3);
        assertThat(d.offset()).isEqualTo(7L);
    }

    @Test
    void parse_binaryValue_isADeadLetterNamingTheByte() {
        byte[] gzip = {0x1f, (byte) 0x8b, 8, 0};
        DeadLetter d = parser.parse(gzip, 0, 0L).rejected();
        assertThat(d.reason()).isEqualTo("record is not UTF-8 JSON text (byte at offset 0 is 31; binary input)");
        assertThat(d.raw()).isEqualTo(gzip);
    }
}
