package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.source.RequestRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

final class InterleavedTelemetryTest {
    /** 25 requests at 10 per second of event time, 4 servers: 3 seconds; every server reports in each second it spans. */
    @Test
    void everyServerReportsOncePerSecondOfEventTime_betweenTheRequests() throws Exception {
        long records = 25;
        long rate = 10;
        int servers = 4;
        var fn = new InterleavedTelemetry(List.of("a", "b"), records, rate, servers);
        try (var h = ProcessFunctionTestHarnesses.forProcessFunction(fn)) {
            long indices = InterleavedTelemetry.indices(records, rate, servers);
            assertThat(indices).isEqualTo(3 * 14);
            for (long i = 0; i < indices; i++) {
                h.processElement(i, 0);
            }
            List<RequestRecord> requests = h.extractOutputValues();
            assertThat(requests).hasSize((int) records);
            assertThat(requests.get(24).request().id()).isEqualTo("r-24");
            assertThat(requests.get(24).request().eventTime()).isEqualTo(GeneratedRequests.BASE + 2_400);
            var reports = new ArrayList<>(h.getSideOutput(InterleavedTelemetry.TELEMETRY));
            Map<String, Integer> perServer = new HashMap<>();
            reports.forEach(r -> perServer.merge(r.getValue().server().serverId(), 1, Integer::sum));
            // the third second holds requests 20..24 only: the reports placed after request 24 are not emitted
            assertThat(reports).hasSize((int) InterleavedTelemetry.reports(records, rate, servers));
            assertThat(perServer.get("s0")).isEqualTo(3);
            assertThat(perServer.get("s3")).isEqualTo(2);
            assertThat(reports.get(0).getValue().server().eventTime()).isBetween(GeneratedRequests.BASE, GeneratedRequests.BASE + 1_000);
        }
    }
}
