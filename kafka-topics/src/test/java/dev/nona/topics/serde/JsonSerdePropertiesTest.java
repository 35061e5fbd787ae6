package dev.nona.topics.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.TopicSpec;
import dev.nona.topics.Topics;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ServerTelemetry;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.NotBlank;
import net.jqwik.api.constraints.Size;

/** Properties of the serde: it never throws on input, and valid records survive a round trip. */
final class JsonSerdePropertiesTest {

    @Property(tries = 500, seed = "20261123")
    void parse_arbitraryBytes_neverThrowsAndGivesAShortReason(@ForAll @Size(max = 300) byte[] bytes) {
        for (TopicSpec<?> topic : Topics.all()) {
            Parsed<?> parsed = JsonSerde.forTopic(topic).parse(bytes);

            if (!parsed.ok()) {
                assertThat(parsed.reason()).isNotBlank().hasSizeLessThanOrEqualTo(Rejections.MAX_REASON_CHARS);
            }
        }
    }

    @Property(tries = 500, seed = "20261123")
    void parse_mutatedValidRecord_neverThrows_andAcceptedMeansRoundTrip(
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed, @ForAll @IntRange(min = 1, max = 4) int edits) {
        JsonSerde<ServerTelemetry> serde = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
        StringBuilder json = new StringBuilder(new String(serde.serialize(JsonSerdeRoundTripTest.TELEMETRY),
                StandardCharsets.UTF_8));
        Random random = new Random(seed);
        String alphabet = "{}[]:,\"-.0123456789eEtruefalsn \\x";
        for (int i = 0; i < edits && json.length() > 0; i++) {
            int at = random.nextInt(json.length());
            switch (random.nextInt(3)) {
                case 0 -> json.deleteCharAt(at);
                case 1 -> json.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                default -> json.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
            }
        }

        Parsed<ServerTelemetry> parsed = serde.parse(json.toString());

        if (parsed.ok()) {
            assertThat(serde.parse(serde.serialize(parsed.value())).value()).isEqualTo(parsed.value());
        } else {
            assertThat(parsed.reason()).isNotBlank();
        }
    }

    @Property(tries = 500, seed = "20261123")
    void roundTrip_arbitraryValidRequest_isEqual(@ForAll @NotBlank String id, @ForAll @NotBlank String model,
            @ForAll @NotBlank String tenant, @ForAll @LongRange(min = 0) long eventTime,
            @ForAll @LongRange(min = -1) long payloadBytes) {
        InferenceRequest request = InferenceRequest.of(id, model, tenant, eventTime, payloadBytes < 0 ? null : payloadBytes);
        JsonSerde<InferenceRequest> serde = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);

        Parsed<InferenceRequest> back = serde.parse(serde.serialize(request));

        assertThat(back.ok()).as("%s", back).isTrue();
        assertThat(back.value()).isEqualTo(request);
    }
}
