package dev.nona.topics.client;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class RecordPublisherTest {

    /** Nothing listens on port 1: the producer gives up on the topic's metadata after max.block.ms. */
    private static Properties unreachable() {
        Properties p = ClientProperties.producer("127.0.0.1:1", 0);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "200");
        return p;
    }

    @Test
    void aFailedSendIsRethrownAtTheNextCheck() {
        try (RecordPublisher publisher = new RecordPublisher(unreachable())) {
            assertThatCode(publisher::rethrowFailure).doesNotThrowAnyException();
            publisher.send("inference-requests", null, new byte[] {1});
            assertThatThrownBy(publisher::rethrowFailure).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("publishing to Kafka failed: ").hasCauseInstanceOf(TimeoutException.class);
            assertThatThrownBy(publisher::flush).isInstanceOf(IllegalStateException.class);
            publisher.close(Duration.ZERO);
        }
    }
}
