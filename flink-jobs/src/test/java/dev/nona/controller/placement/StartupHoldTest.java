package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.InferenceRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

final class StartupHoldTest {
    private static RequestRecord request(String id) {
        return new RequestRecord(InferenceRequest.of(id, "fig1", "tenant", 1000, null), null, 0, 7);
    }

    @Test
    void holdsUpToItsCapacity_thenRefuses_andReleasesInArrivalOrder() {
        StartupHold hold = new StartupHold(2);
        assertThat(hold.hold(request("a"))).isTrue();
        assertThat(hold.hold(request("b"))).isTrue();
        assertThat(hold.hold(request("c"))).as("full").isFalse();
        assertThat(hold.size()).isEqualTo(2);
        assertThat(hold.release()).extracting(r -> r.request().id()).containsExactly("a", "b");
        assertThat(hold.isEmpty()).isTrue();
        assertThat(hold.hold(request("c"))).as("room again after the release").isTrue();
    }

    @Test
    void zeroCapacity_holdsNothing() {
        StartupHold hold = new StartupHold(0);
        assertThat(hold.hold(request("a"))).isFalse();
        assertThat(hold.isEmpty()).isTrue();
    }

    @Test
    void restore_holdsEveryCheckpointedRequest_inOrder() {
        StartupHold hold = new StartupHold(1);
        hold.restore(List.of(request("a"), request("b")));
        assertThat(hold.held()).extracting(r -> r.request().id()).containsExactly("a", "b");
        assertThat(hold.hold(request("c"))).isFalse();
    }

    @Test
    void overflowReason_namesWhatIsMissing_andTheCapacity() {
        StartupHold hold = new StartupHold(5);
        assertThat(hold.overflowReason(true)).isEqualTo(
                "no server is up (no telemetry yet, or every server is down) and the startup buffer (5 requests) is full");
        assertThat(hold.overflowReason(false)).isEqualTo(
                "the model catalog is empty and the startup buffer (5 requests) is full");
    }

    @Test
    void negativeCapacity_isRejectedWithItsOptionName() {
        assertThatThrownBy(() -> new StartupHold(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("placement.startup-buffer (-1) must be >= 0");
    }

    @Test
    void descriptor_isTheCheckpointedStatesName() {
        assertThat(StartupHold.descriptor().getName()).isEqualTo("held-requests");
    }
}
