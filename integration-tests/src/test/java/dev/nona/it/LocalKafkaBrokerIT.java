package dev.nona.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.local.LocalKafkaBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The child-process KRaft broker: committed data survives a clean stop and a {@code kill -9}. */
final class LocalKafkaBrokerIT {

    @Test
    void contract_killNineThenRestart_keepsCommittedRecordsAndAbortsOpenTransaction() {
        try (LocalKafkaBroker broker = LocalKafkaBroker.builder().build().start()) {
            try {
                killAndRestarts(broker);
            } catch (Throwable t) {
                // the broker's own account, before close() deletes it: once (2026-12-06, a CI run) the first produce
                // after the clean restart failed with InvalidTxnStateException, a fatal error, and nothing else said why
                System.err.println(tail(broker.logFile(), 400));
                throw t;
            }
        }
    }

    private static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "--- the last " + lines + " lines of " + log + "\n"
                    + String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "--- cannot read " + log + ": " + e;
        }
    }

    private static void killAndRestarts(LocalKafkaBroker broker) {
        String topic = "it-broker";
        KafkaTestClients.createTopics(broker.bootstrapServers(), 2, topic);
        sendCommitted(broker, topic, 0, 2_000);
        long firstPid = broker.pid();

        broker.kill();
        assertThat(broker.isRunning()).isFalse();
        broker.start();
        assertThat(broker.pid()).isNotEqualTo(firstPid);
        sendCommitted(broker, topic, 2_000, 4_000);

        broker.stop();
        broker.start();
        sendAborted(broker, topic, 4_000, 4_500);
        sendCommitted(broker, topic, 4_500, 5_000);

        List<ConsumerRecord<String, String>> read =
                KafkaTestClients.readAll(broker.bootstrapServers(), topic, 4_500, Duration.ofSeconds(60));
        Set<String> values = new HashSet<>();
        read.forEach(r -> values.add(r.value()));
        assertThat(read).hasSize(4_500);
        assertThat(values).hasSize(4_500).contains("v0", "v3999", "v4500", "v4999").doesNotContain("v4000", "v4499");
        assertThat(broker.starts()).isEqualTo(3);
    }

    private static void sendCommitted(LocalKafkaBroker broker, String topic, int from, int to) {
        try (KafkaProducer<String, String> p = KafkaTestClients.producer(broker.bootstrapServers(), "it-tx")) {
            p.initTransactions();
            p.beginTransaction();
            for (int i = from; i < to; i++) {
                p.send(new ProducerRecord<>(topic, "k" + i, "v" + i));
            }
            p.commitTransaction();
        }
    }

    private static void sendAborted(LocalKafkaBroker broker, String topic, int from, int to) {
        try (KafkaProducer<String, String> p = KafkaTestClients.producer(broker.bootstrapServers(), "it-tx")) {
            p.initTransactions();
            p.beginTransaction();
            for (int i = from; i < to; i++) {
                p.send(new ProducerRecord<>(topic, "k" + i, "v" + i));
            }
            p.flush();
            p.abortTransaction();
        }
    }
}
