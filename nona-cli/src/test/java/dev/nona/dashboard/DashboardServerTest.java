package dev.nona.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

final class DashboardServerTest {
    private final DashboardState state = new DashboardState("localhost:9092", Duration.ofSeconds(3));
    private final HttpClient http = HttpClient.newHttpClient();
    private DashboardServer server;

    @BeforeEach
    void start() throws Exception {
        server = new DashboardServer("localhost", 0, state::snapshot);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void apiState_isTheSnapshotAsJson() throws Exception {
        state.decision(PlacementDecision.of("r1", "vgg16", "t", 3, false, List.of(new StageAssignment("a", "s0")),
                0.04, 1_800_000_000_000L));
        state.position("placement-decisions-0", 1);

        HttpResponse<String> r = get("/api/state");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode json = new ObjectMapper().readTree(r.body());
        assertThat(json.path("bootstrap").asText()).isEqualTo("localhost:9092");
        assertThat(json.path("models").get(0).path("name").asText()).isEqualTo("vgg16");
        assertThat(json.path("models").get(0).path("decisions").asLong()).isEqualTo(1);
        assertThat(json.path("positions").path("placement-decisions-0").asLong()).isEqualTo(1);
        assertThat(json.path("drained").asText()).isEqualTo("drained: none");
    }

    @Test
    void page_itsScript_andUPlotFromTheWebJar_areServed() throws Exception {
        HttpResponse<String> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("/static/app.js", "/webjars/uplot/" + DashboardServer.UPLOT_VERSION + "/");
        assertThat(get("/static/app.js").body()).contains("/api/state");
        HttpResponse<String> uplot = get("/webjars/uplot/" + DashboardServer.UPLOT_VERSION + "/dist/uPlot.iife.min.js");
        assertThat(uplot.statusCode()).isEqualTo(200);
        assertThat(uplot.headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(uplot.body()).contains("uPlot");
    }

    @Test
    void unknownPaths_are404_andOtherMethods405() throws Exception {
        assertThat(get("/static/nope.js").statusCode()).isEqualTo(404);
        assertThat(get("/static/%2E%2E/dashboard/index.html").statusCode()).isEqualTo(404);
        assertThat(get("/favicon.ico").statusCode()).isEqualTo(404);
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri("/api/state"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + server.port() + path);
    }
}
