package dev.nona.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.local.LocalKafkaBroker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The page says when it cannot read: a real broker killed with SIGKILL under a running dashboard turns
 * {@code broker.connected} false on {@code /api/state} (since about the kill), and its restart turns it true again.
 * Before, the page kept the figures read before the outage with nothing to say they were frozen, and every server
 * turned silent as if the servers, not the reader, had stopped.
 */
final class DashboardBrokerIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void brokerKilled_theStateSaysTheReaderHasNoConnectionSinceThen_andConnectedAgainAfterTheRestart() throws Exception {
        try (LocalKafkaBroker broker = LocalKafkaBroker.builder().build().start()) {
            Dashboard dashboard = Dashboard.start(broker.bootstrapServers(), "localhost", 0, Duration.ofSeconds(3));
            try {
                JsonNode up = await(dashboard, s -> s.path("broker").path("connected").asBoolean(), "connected");
                assertThat(up.path("broker").path("sinceMillis").asLong()).isPositive();

                long killedAt = System.currentTimeMillis();
                broker.kill();
                JsonNode down = await(dashboard, s -> !s.path("broker").path("connected").asBoolean(), "disconnected");
                long since = down.path("broker").path("sinceMillis").asLong();
                assertThat(since).as("no connection since, against the kill at %d", killedAt)
                        .isGreaterThanOrEqualTo(killedAt).isLessThanOrEqualTo(down.path("generatedAt").asLong());

                broker.start();
                JsonNode again = await(dashboard, s -> s.path("broker").path("connected").asBoolean(), "reconnected");
                assertThat(again.path("broker").path("sinceMillis").asLong()).isGreaterThan(since);
                assertThat(dashboard.failure()).isNull();
            } finally {
                dashboard.close();
            }
        }
    }

    /** {@code /api/state} once {@code until} holds, within 60 s. */
    private static JsonNode await(Dashboard dashboard, Predicate<JsonNode> until, String what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode s = null;
        while (System.nanoTime() < deadline) {
            String body = HTTP.send(HttpRequest.newBuilder(URI.create(dashboard.url() + "api/state")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            s = JSON.readTree(body);
            if (until.test(s)) {
                return s;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the state never said " + what + " within 60 s: " + s);
    }
}
