package dev.nona.topics.serde;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import dev.nona.topics.Topics;
import dev.nona.topics.record.InferenceRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The guards of {@link JsonSerde#parse(byte[])} run before the parse they bound: a value over the size limit, or
 * binary, never reaches Jackson (no parser is made), and a deep document's parse stops at the depth bound, a few
 * hundred bytes in, whatever follows. Checked by counting, on a factory of the shared configuration, the parsers it
 * makes and where each stopped, not by timing.
 */
final class JsonSerdeGuardTest {
    private static final String VALID_REQUEST =
            "{\"schemaVersion\":1,\"id\":\"r\",\"model\":\"m\",\"tenant\":\"t\",\"eventTime\":12}";

    private final TestingCountingJsonFactory factory = new TestingCountingJsonFactory();
    private final JsonSerde<InferenceRequest> requests = new JsonSerde<>(InferenceRequest.class,
            RecordLimits.maxRecordBytes(Topics.INFERENCE_REQUESTS), TopicJson.build(factory));

    @Test
    void size_fiveMegabyteValue_isRejectedWithoutAParser() {
        byte[] big = new byte[5_000_000];
        Arrays.fill(big, (byte) ' ');
        byte[] head = VALID_REQUEST.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(head, 0, big, 0, head.length);

        Parsed<InferenceRequest> parsed = requests.parse(big);

        assertThat(parsed.reason()).isEqualTo("record size (5000000 bytes) exceeds the limit (65536 bytes)");
        assertThat(factory.parsers).hasValue(0);
    }

    @Test
    void size_oneByteOverTheLimit_isRejectedWithoutAParser() {
        byte[] over = new byte[RecordLimits.SMALL_RECORD_BYTES + 1];
        Arrays.fill(over, (byte) ' ');
        over[0] = '{';

        assertThat(requests.parse(over).ok()).isFalse();
        assertThat(factory.parsers).hasValue(0);
    }

    @Test
    void binary_isRejectedWithoutAParser() {
        byte[] binary = new byte[1024];
        new Random(42).nextBytes(binary);
        binary[0] = (byte) 0x8b;

        assertThat(requests.parse(binary).reason()).startsWith("record is not UTF-8 JSON text");
        assertThat(factory.parsers).hasValue(0);
    }

    @Test
    void depth_5000DeepValue_parseStopsAtTheDepthBound() {
        String deep = "{\"schemaVersion\":1,\"id\":\"bad\",\"payload\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}";

        Parsed<InferenceRequest> parsed = requests.parse(deep);

        assertThat(parsed.reason())
                .isEqualTo("record over a parse limit: Document nesting depth (65) exceeds the maximum allowed (64)");
        assertThat(factory.parsers).hasValue(1);
        assertThat(factory.stoppedAtByte.get()).isBetween(65L, 200L); // of 10,042 bytes
    }

    @Test
    void valid_request_isParsedByOneParser() {
        assertThat(requests.parse(VALID_REQUEST).ok()).isTrue();
        assertThat(factory.parsers).hasValue(1);
    }

    /**
     * A factory with the shared parse bounds ({@link RecordLimits#constraints()}) that counts the parsers it makes
     * for byte input and notes the byte offset at which the last one was closed.
     */
    static final class TestingCountingJsonFactory extends JsonFactory {
        private static final long serialVersionUID = 1L;

        final AtomicInteger parsers = new AtomicInteger();
        final AtomicLong stoppedAtByte = new AtomicLong(-1);

        TestingCountingJsonFactory() {
            super((JsonFactoryBuilder) new JsonFactoryBuilder().streamReadConstraints(RecordLimits.constraints()));
        }

        @Override
        protected JsonParser _createParser(byte[] data, int offset, int len, IOContext ctxt) throws IOException {
            parsers.incrementAndGet();
            return new JsonParserDelegate(super._createParser(data, offset, len, ctxt)) {
                @Override
                public void close() throws IOException {
                    stoppedAtByte.set(delegate.currentLocation().getByteOffset());
                    super.close();
                }
            };
        }
    }
}
