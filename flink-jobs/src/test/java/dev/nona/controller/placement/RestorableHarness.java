package dev.nona.controller.placement;

import dev.nona.controller.DecisionFormat;
import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.PlacementDecision;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithNonKeyedOperator;
import org.apache.flink.streaming.util.BroadcastOperatorTestHarness;

/** The placement operator in a harness that can be snapshot and restored, for the tests of what a restore keeps. */
final class RestorableHarness {
    private RestorableHarness() {
    }

    /** A placement function with a startup buffer of 100 and a hold of 30 s, full decisions. */
    static PlacementFunction function() {
        return new PlacementFunction("inference-requests", 3, new NonaPlacerFactory(), List.of(), 100,
                PlacementFunction.DEFAULT_LIVENESS_TIMEOUT_MILLIS, DecisionFormat.FULL, 30_000);
    }

    /** {@code fn} in an open harness, restored from {@code restore} first unless it is null. */
    static BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> open(PlacementFunction fn,
            OperatorSubtaskState restore) throws Exception {
        var h = new BroadcastOperatorTestHarness<>(new CoBroadcastWithNonKeyedOperator<>(fn,
                List.of(PlacementFunction.BROADCAST_STATES)), 1, 1, 0);
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }
}
