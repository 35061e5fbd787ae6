package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The reader's key parsing, which runs per decision without building a String. */
final class LatencyReaderTest {
    @Test
    void measuredKeys_giveTheirIndex() {
        assertThat(LatencyReader.measuredIndex(key("m-0"))).isZero();
        assertThat(LatencyReader.measuredIndex(key("m-199999"))).isEqualTo(199_999);
        assertThat(LatencyReader.measuredIndex(key("m-" + (Integer.MAX_VALUE / 10)))).isEqualTo(Integer.MAX_VALUE / 10);
    }

    @Test
    void otherKeys_areNotMeasured() {
        for (String k : new String[] {"", "m-", "m", "w-12", "ready-resnet18-0", "m-12x", "m--1", "M-1", "m-1234567890"}) {
            assertThat(LatencyReader.measuredIndex(key(k))).as(k).isEqualTo(-1);
        }
    }

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
