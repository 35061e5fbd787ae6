package dev.nona.controller.serde;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.nona.topics.serde.TopicJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class JsonBytesTest {
    /** What the topic serde writes (its bytes: Jackson's UTF-8 output escapes a surrogate pair, its text would not). */
    private static String jackson(Object value) throws JsonProcessingException {
        return new String(TopicJson.mapper().writeValueAsBytes(value), StandardCharsets.UTF_8);
    }

    private static String written(JsonBytes json) {
        byte[] out = new byte[json.size()];
        json.copyTo(0, json.size(), out, 0);
        return new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void number_edgesAndRandomLongs_asJacksonWritesThem() throws Exception {
        SplittableRandom rng = new SplittableRandom(3);
        long[] values = new long[1_000];
        long[] edges = {0, 1, -1, 9, 10, 99_999_999, 100_000_000, -100_000_000, Long.MAX_VALUE, Long.MIN_VALUE,
                Long.MIN_VALUE + 1, Integer.MAX_VALUE, 1_700_000_000_017L};
        System.arraycopy(edges, 0, values, 0, edges.length);
        for (int i = edges.length; i < values.length; i++) {
            values[i] = rng.nextLong() >> rng.nextInt(64);
        }
        JsonBytes json = new JsonBytes();
        for (long v : values) {
            json.reset();
            json.number(v);
            assertThat(written(json)).as("%d", v).isEqualTo(jackson(v));
        }
    }

    @Test
    void decimal_wholeMicrosecondsAndOthers_asJacksonWritesThem() throws Exception {
        SplittableRandom rng = new SplittableRandom(5);
        JsonBytes json = new JsonBytes();
        double[] edges = {0.0, 1e-6, 9e-6, 1e-5, 1e-4, 9.99e-4, 0.001, 0.001001, 1.0, 12.0345, 99.999999, 100.0,
                100.000001, 1e-7, -0.5, Double.MIN_VALUE, Double.MAX_VALUE, 3.637806568E-4, Math.nextUp(0.001)};
        double[] values = Arrays.copyOf(edges, edges.length + 5_000);
        for (int i = edges.length; i < values.length; i++) {
            values[i] = i % 2 == 0 ? rng.nextLong(100_000_000L) / 1e6 : rng.nextDouble() * Math.pow(10, rng.nextInt(-9, 9));
        }
        for (double v : values) {
            json.reset();
            json.decimal(v);
            assertThat(written(json)).as("%s", v).isEqualTo(jackson(v));
        }
    }

    @Test
    void string_plainAndEscaped_asJacksonWritesThem() throws Exception {
        JsonBytes json = new JsonBytes();
        for (String s : new String[] {"", "r-17", "req \"quoted\" \\ id\u0000", "ténant\r", "😀", "\u007f", "tab\there"}) {
            json.reset();
            json.string(s);
            assertThat(written(json)).isEqualTo(jackson(s));
            assertThat(new String(JsonBytes.quoted(s), StandardCharsets.UTF_8)).isEqualTo(jackson(s));
        }
        assertThat(JsonBytes.plainQuoted("sérveur", 0)).as("a character to escape").isNull();
        assertThat(JsonBytes.plainQuoted("s1", 2)).containsExactly('"', 's', '1', '"', 0, 0);
    }

    @Test
    void growsPastItsFirstBuffer_andResetStartsAfresh() {
        JsonBytes json = new JsonBytes();
        String longId = "x".repeat(1_000);
        json.raw('[');
        json.string(longId);
        json.raw(',');
        json.number(42);
        json.raw(']');
        assertThat(written(json)).isEqualTo("[\"" + longId + "\",42]");
        json.reset();
        json.raw("{}".getBytes(StandardCharsets.US_ASCII), 1);
        assertThat(written(json)).isEqualTo("{");
    }
}
