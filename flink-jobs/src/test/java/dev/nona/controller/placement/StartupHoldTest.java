package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

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
        StartupHold hold = new StartupHold(2, 30_000);
        assertThat(hold.hold(request("a"), 0)).isTrue();
        assertThat(hold.hold(request("b"), 0)).isTrue();
        assertThat(hold.hold(request("c"), 0)).as("full").isFalse();
        assertThat(hold.size()).isEqualTo(2);
        assertThat(hold.release()).extracting(h -> h.record().request().id()).containsExactly("a", "b");
        assertThat(hold.isEmpty()).isTrue();
        assertThat(hold.hold(request("c"), 0)).as("room again after the release").isTrue();
    }

    @Test
    void zeroCapacity_holdsNothing() {
        StartupHold hold = new StartupHold(0, 30_000);
        assertThat(hold.hold(request("a"), 0)).isFalse();
        assertThat(hold.isEmpty()).isTrue();
    }

    @Test
    void restore_holdsEveryCheckpointedRequest_inOrder() {
        StartupHold hold = new StartupHold(1, 30_000);
        hold.restore(List.of(request("a"), request("b")), 0);
        assertThat(hold.held()).extracting(r -> r.request().id()).containsExactly("a", "b");
        assertThat(hold.hold(request("c"), 0)).isFalse();
    }

    @Test
    void overflowReason_namesWhatIsMissing_andTheCapacity() {
        StartupHold hold = new StartupHold(5, 30_000);
        assertThat(hold.overflowReason(StartupHold.Reason.NO_SERVER)).isEqualTo(
                "no server is up (no telemetry yet, or every server is down) and the startup buffer (5 requests) is full");
        assertThat(hold.overflowReason(StartupHold.Reason.NO_CATALOG)).isEqualTo(
                "the model catalog is empty and the startup buffer (5 requests) is full");
    }

    @Test
    void negativeCapacity_isRejectedWithItsOptionName() {
        assertThatThrownBy(() -> new StartupHold(-1, 30_000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("placement.startup-buffer (-1) must be >= 0");
    }

    @Test
    void descriptor_isTheCheckpointedStatesName() {
        assertThat(StartupHold.descriptor().getName()).isEqualTo("held-requests");
    }

    /**
     * Timeout 30 s: a held at 0 s, b at 10 s. At 30 s none has expired; at 30.001 s a has, b not; a hold runs from the
     * first request held to the moment none is, and its end counts what became of its requests.
     */
    @Test
    void heldRequests_expireAfterTheTimeout_oldestFirst_andAHoldCountsWhatBecameOfThem() {
        StartupHold hold = new StartupHold(10, 30_000);
        assertThat(hold.start(0, 3, StartupHold.Reason.NO_SERVER)).as("nothing held yet").isNull();
        hold.hold(request("a"), 0);
        assertThat(hold.start(0, 3, StartupHold.Reason.NO_SERVER)).containsExactly(entry("subtask", 3), entry("reason", "no server is up"),
                entry("holdTimeoutMillis", 30_000L));
        hold.hold(request("b"), 10_000);
        assertThat(hold.start(10_000, 3, StartupHold.Reason.NO_SERVER)).as("already running").isNull();
        assertThat(hold.nextExpiry()).isEqualTo(30_001);
        assertThat(hold.expire(30_000)).isEmpty();
        assertThat(hold.expire(30_001)).extracting(h -> h.record().request().id()).containsExactly("a");
        hold.deadLettered(1);
        assertThat(hold.nextExpiry()).isEqualTo(40_001);
        assertThat(hold.end(30_001, 3)).as("b still held").isNull();
        List<StartupHold.Held> released = hold.release();
        assertThat(released).singleElement().satisfies(h -> assertThat(h.since()).isEqualTo(10_000));
        hold.placed();
        assertThat(hold.end(35_000, 3)).containsExactly(entry("subtask", 3), entry("placed", 1),
                entry("deadLettered", 1), entry("heldForMillis", 35_000L));
        assertThat(hold.end(35_000, 3)).as("once").isNull();
        assertThat(hold.nextExpiry()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void timeoutReason_namesTheOptionItsValue_andWhatIsMissing() {
        StartupHold hold = new StartupHold(5, 30_000);
        assertThat(hold.timeoutReason(StartupHold.Reason.NO_SERVER)).isEqualTo("held for more than placement.hold-timeout (30000 ms) while no "
                + "server is up (no telemetry yet, or every server is down)");
        assertThat(hold.timeoutReason(StartupHold.Reason.NO_CATALOG)).isEqualTo(
                "held for more than placement.hold-timeout (30000 ms) while the model catalog is empty");
        assertThat(hold.timeoutReason(StartupHold.Reason.TELEMETRY_BEHIND)).isEqualTo("held for more than "
                + "placement.hold-timeout (30000 ms) while telemetry has not reached the request's time (which servers "
                + "were live then is not known yet)");
        assertThatThrownBy(() -> new StartupHold(5, 0)).hasMessage("placement.hold-timeout (0 ms) must be > 0");
    }
}
