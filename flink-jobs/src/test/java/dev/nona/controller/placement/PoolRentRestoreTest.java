package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.BroadcastOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * A restore keeps the rent of rent or buy (the placement operator's list state {@code pool-rents}): what not loading
 * a model where its requests would have finished first has cost them. The example of
 * {@code MemoryAwarePlacementTest.expectedFinish_theRentDecays_*} at a half-life of 60 s: a request of 1 s every 2 s,
 * the server holding the model busy with one request of 0.4 s, the other idle and cold, a load of 3 s. Each request
 * queues on the warm server and adds 0.8 s of rent; the 4th loads the model on the cold one. An operator restored
 * after the 2nd request loads it at the 4th too; one that starts without the rent, at the 6th.
 */
final class PoolRentRestoreTest {
    private static final long T = 1_000_000;

    private static BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> harness(
            OperatorSubtaskState restore) throws Exception {
        return RestorableHarness.open(RestorableHarness.function().coldStart(3.0, 0)
                .rentHalfLife(Duration.ofSeconds(60)), restore);
    }

    /** The catalog: model "m", one task of 1 s on a server of {@link TestingCluster#OPS_PER_SECOND}. */
    private static void catalog(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h)
            throws Exception {
        h.processBroadcastElement(BroadcastUpdate.of(ModelCatalogEntry.of("m", new CatalogDag("m",
                List.of(new CatalogTask("x", TestingCluster.OPS_PER_SECOND, 1.0e6)), List.of()))), T);
    }

    /** The {@code k}-th request, 2 s after the one before, after both servers report: the server it goes to. */
    private static String request(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h,
            int k) throws Exception {
        long t = T + 2_000L * k;
        h.setProcessingTime(t);
        h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("warm", true, TestingCluster.OPS_PER_SECOND, 1,
                List.of(new CachedModel("m", 1_000_000L)), TestingCluster.LINK_BITS_PER_SECOND, t, 0.4)
                .withClass("gpu", 1.0e10)), t);
        h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("cold", true, TestingCluster.OPS_PER_SECOND, 0,
                List.of(), TestingCluster.LINK_BITS_PER_SECOND, t, 0.0).withClass("gpu", 1.0e10)), t);
        h.getOutput().clear();
        h.processElement(new RequestRecord(InferenceRequest.of("r" + k, "m", "tenant", t, null), null, 2, 42), t);
        List<PlacementDecision> out = h.extractOutputValues();
        assertThat(out).as("request %d", k).hasSize(1);
        return out.get(0).stages().get(0).server();
    }

    /** Requests {@code from..to} ({@code to} at most): the servers they went to, up to the first on the cold one. */
    private static List<String> untilTheLoad(
            BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h, int from, int to)
            throws Exception {
        List<String> servers = new ArrayList<>();
        for (int k = from; k <= to && !servers.contains("cold"); k++) {
            servers.add(request(h, k));
        }
        return servers;
    }

    @Test
    void aRestoredOperator_buysTheLoadWhenTheOneThatDidNotStopDoes() throws Exception {
        OperatorSubtaskState snapshot;
        List<String> continued;
        try (var h = harness(null)) {
            catalog(h);
            assertThat(untilTheLoad(h, 1, 2)).containsExactly("warm", "warm");
            snapshot = h.snapshot(1, T + 4_000);
            continued = untilTheLoad(h, 3, 10);
        }
        assertThat(continued).as("the 4th request loads the model").containsExactly("warm", "cold");

        try (var restored = harness(snapshot)) {
            assertThat(untilTheLoad(restored, 3, 10)).as("restored").isEqualTo(continued);
        }
        try (var fresh = harness(null)) {
            catalog(fresh);
            assertThat(untilTheLoad(fresh, 3, 10)).as("without the rent: from 0, the 4th after the start")
                    .containsExactly("warm", "warm", "warm", "cold");
        }
    }
}
