package dev.nona.topics.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClientPropertiesTest {

    @Test
    void producersAndReaders_receiveIntoAOneMegabyteSocketBuffer() {
        assertThat(ClientProperties.producer("b:9092", 0)).containsEntry("receive.buffer.bytes", "1048576")
                .doesNotContainKey("send.buffer.bytes").containsEntry("acks", "all");
        assertThat(ClientProperties.readCommittedConsumer("b:9092", null)).containsEntry("receive.buffer.bytes", "1048576")
                .containsEntry("isolation.level", "read_committed");
    }
}
