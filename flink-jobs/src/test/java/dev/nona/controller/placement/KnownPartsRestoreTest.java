package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.source.RequestRecord;
import dev.nona.placement.LiveServers;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.BroadcastOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * A restore keeps the parts the placer sent to servers too small for their model whole: no report names a server's
 * parts (only its bytes of each model), so a placer that started again without them would see every part cold. The
 * chain and the table are {@link SplitAwaitingHoldTest}'s (310 bytes on four servers of 250; loads weighed at 1 s),
 * whose table cuts it in two parts, {a, b} of 100 bytes and {c, d, e} of 210.
 */
final class KnownPartsRestoreTest {
    private static final double MEMORY_BYTES = 250;

    private static BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> harness(
            OperatorSubtaskState restore) throws Exception {
        return RestorableHarness.open(RestorableHarness.function().coldStart(1.0, 0), restore);
    }

    private static RequestRecord request(String id, long eventTime) {
        return new RequestRecord(InferenceRequest.of(id, "big", "tenant", eventTime, null), null, 2, 42);
    }

    /** Every server reports at {@code now}, idle, holding {@code bigBytes[i]} of the chain. */
    private static void report(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h,
            long now, long[] bigBytes) throws Exception {
        report(h, now, bigBytes, new double[4]);
    }

    /** As {@link #report}, server {@code i} holding {@code backlogSeconds[i]} of work. */
    private static void report(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h,
            long now, long[] bigBytes, double[] backlogSeconds) throws Exception {
        h.setProcessingTime(now);
        for (int i = 0; i < 4; i++) {
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s" + i, true, TestingCluster.OPS_PER_SECOND,
                    backlogSeconds[i] > 0 ? 1 : 0, bigBytes[i] > 0 ? List.of(new CachedModel("big", bigBytes[i])) : List.of(),
                    TestingCluster.LINK_BITS_PER_SECOND, now, backlogSeconds[i]).withClass("s", MEMORY_BYTES)), now);
        }
    }

    /** Places {@code n} requests at {@code now}; their decisions. */
    private static List<PlacementDecision> decide(
            BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h, String prefix, int n,
            long now) throws Exception {
        h.getOutput().clear();
        for (int i = 0; i < n; i++) {
            h.processElement(request(prefix + i, now), now);
        }
        return h.extractOutputValues();
    }

    /** Each server's bytes of the chain once {@code decisions} ran there: the distinct tasks it got. */
    private static long[] held(List<PlacementDecision> decisions) {
        long[] bytes = new long[4];
        decisions.stream().flatMap(d -> d.stages().stream()).distinct().forEach(st -> bytes[
                Integer.parseInt(st.server().substring(1))] += SplitAwaitingHoldTest.TASK_BYTES.get(st.task()));
        return bytes;
    }

    /** Places {@code n} requests at {@code now}; their decisions' parts. */
    private static List<List<DecisionPart>> place(
            BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h, String prefix, int n,
            long now) throws Exception {
        h.getOutput().clear();
        for (int i = 0; i < n; i++) {
            h.processElement(request(prefix + i, now), now);
        }
        return h.extractOutputValues().stream().map(d -> d.explanation().parts()).toList();
    }

    /**
     * The chain's first requests load its two parts on the four servers; the servers report them held; a checkpoint.
     * Returns the checkpoint; {@code continued} gets the next requests' parts as the operator that did not stop places
     * them, and {@code held} each server's bytes of the chain as the servers report them.
     */
    private static OperatorSubtaskState firstRequestsThenCheckpoint(List<List<DecisionPart>> continued, long[] held)
            throws Exception {
        try (var h = harness(null)) {
            report(h, 1_000, new long[4]);
            h.processBroadcastElement(BroadcastUpdate.of(ModelCatalogEntry.of("big", SplitAwaitingHoldTest.BIG)), 1_000);
            h.processBroadcastElement(BroadcastUpdate.of(SplitAwaitingHoldTest.splitTable(1)), 1_000);
            List<PlacementDecision> first = decide(h, "first-", 4, 1_000);
            assertThat(first).as("the first requests load the parts").flatMap(d -> d.explanation().parts())
                    .extracting(DecisionPart::coldStart).contains(true);
            System.arraycopy(held(first), 0, held, 0, 4);
            assertThat(held).as("each server got one part, which fits").containsOnly(100, 210);
            report(h, 3_000, held);
            OperatorSubtaskState snapshot = h.snapshot(1, 3_000);
            continued.addAll(place(h, "next-", 4, 3_000));
            return snapshot;
        }
    }

    /** The job runs with {@code pipeline.generic-types: false}: the parts' and the rents' states must not need Kryo. */
    @Test
    void thePartsStateIsAPojo_notAGenericType() {
        assertThat(TypeInformation.of(LiveServers.KnownPart.class))
                .isInstanceOf(PojoTypeInfo.class);
        assertThat(TypeInformation.of(LiveServers.PoolRent.class)).as("the rents' state (POOL_RENTS)")
                .isInstanceOf(PojoTypeInfo.class);
    }

    @Test
    void aRestoredOperator_placesTheSplitModelWhereItsPartsAreWarm_asTheOneThatDidNotStop() throws Exception {
        List<List<DecisionPart>> continued = new ArrayList<>();
        OperatorSubtaskState snapshot = firstRequestsThenCheckpoint(continued, new long[4]);
        assertThat(continued).hasSize(4).flatMap(parts -> parts).allSatisfy(p -> {
            assertThat(p.coldStart()).as("every part warm where it was loaded").isFalse();
            assertThat(p.warm()).isTrue();
        });

        try (var restored = harness(snapshot)) {
            restored.setProcessingTime(3_000);
            assertThat(place(restored, "next-", 4, 3_000)).as("as if it had not stopped").isEqualTo(continued);
        }
    }

    /** A part the servers' reports no longer show held after the restore is not warm there. */
    @Test
    void aPartEvictedSinceTheCheckpoint_isNotWarmAfterTheRestore() throws Exception {
        long[] held = new long[4];
        OperatorSubtaskState snapshot = firstRequestsThenCheckpoint(new ArrayList<>(), held);
        int keptSmall = -1;
        int keptLarge = -1;
        for (int s = 0; s < 4; s++) {
            keptSmall = held[s] == 100 ? s : keptSmall;
            keptLarge = held[s] == 210 ? s : keptLarge;
        }
        assertThat(keptSmall).as("a server holds {a, b}").isNotNegative();
        assertThat(keptLarge).as("a server holds {c, d, e}").isNotNegative();
        long[] after = new long[4];
        after[keptSmall] = 100;
        after[keptLarge] = 210;
        Set<String> kept = Set.of("s" + keptSmall, "s" + keptLarge);

        // the servers still holding the parts are 5 s behind, more than a load (1 s): the parts go to the others
        double[] backlog = new double[4];
        backlog[keptSmall] = 5;
        backlog[keptLarge] = 5;
        try (var restored = harness(snapshot)) {
            report(restored, 4_000, after, backlog); // the two others evicted their parts since the checkpoint

            List<DecisionPart> parts = place(restored, "after-", 1, 4_000).get(0);

            assertThat(parts).extracting(DecisionPart::server).doesNotContainAnyElementsOf(kept);
            assertThat(parts).as("each loads again").allSatisfy(p -> {
                assertThat(p.coldStart()).isTrue();
                assertThat(p.warm()).isFalse();
            });
        }
    }
}
