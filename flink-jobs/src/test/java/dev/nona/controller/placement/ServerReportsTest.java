package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.placement.LiveServers;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ServerTelemetry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a report's cached models tell the placer about the parts of a model too large for the server. */
final class ServerReportsTest {
    private static ServerTelemetry report(long eventTime, CachedModel... held) {
        return ServerTelemetry.of("s0", true, 1e9, 0, List.of(held), null, eventTime).withClass("gpu", 40.0);
    }

    @Test
    void aPartSentToAServer_staysWarmWhileItsReportsHoldTheModelsBytes() {
        LiveServers servers = new LiveServers(4, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        int s = ServerReports.apply(servers, report(1_000), 0);
        int part = servers.pool("big\u0000part 0.0");
        servers.loadingPart(s, part, "big", 30, 1_000, 0);

        ServerReports.apply(servers, report(2_000, new CachedModel("big", 30)), 0);
        assertThat(servers.isWarm(s, part)).as("30 bytes of big: its part").isTrue();

        ServerReports.apply(servers, report(3_000, new CachedModel("other", 30)), 0);
        assertThat(servers.isWarm(s, part)).as("nothing of big any more").isFalse();
        assertThat(servers.holdsParts(s)).isFalse();
    }
}
