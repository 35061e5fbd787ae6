package dev.nona.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

final class ModelRegistryTest {
    private static final ModelProfile SMALL = new ModelProfile("small", 300, 3, 1, 0);
    private static final ModelProfile BASE = new ModelProfile("base", 900, 6, 1, 0);

    private static ModelRegistry registry(int servers) {
        ModelRegistry r = new ModelRegistry();
        for (int i = 0; i < servers; i++) {
            r.addServer("s" + i, 1000);
        }
        return r;
    }

    @Test
    void locateProxy_picksLeastLoadedResidentUnderTarget() {
        ModelRegistry r = registry(3);
        r.assign("s0", SMALL);
        r.assign("s2", SMALL);
        r.beginRequest("s0");
        r.beginRequest("s0");
        r.beginRequest("s2");

        assertThat(r.locateProxy("small")).contains("s2");
        assertThat(r.locateProxy("base")).isEmpty();
    }

    @Test
    void locateProxy_eligible_picksLeastLoadedAmongTheAccepted() {
        ModelRegistry r = registry(3);
        r.assign("s0", SMALL);
        r.assign("s2", SMALL);
        r.beginRequest("s0");
        r.beginRequest("s0");
        r.beginRequest("s2");

        assertThat(r.locateProxy("small", s -> !s.equals("s2"))).contains("s0");
        assertThat(r.locateProxy("small", s -> false)).isEmpty();
    }

    @Test
    void locateProxy_serversAtTarget_areSkipped() {
        ModelRegistry r = new ModelRegistry(2);
        r.addServer("s0", 1000);
        r.assign("s0", SMALL);
        r.beginRequest("s0");
        assertThat(r.locateProxy("small")).contains("s0");

        r.beginRequest("s0");
        assertThat(r.locateProxy("small")).isEmpty();
        r.endRequest("s0");
        assertThat(r.locateProxy("small")).contains("s0");
    }

    @Test
    void assign_isResidentBeforeLoaded_markLoadedCompletesTheColdStart() {
        ModelRegistry r = registry(1);
        r.assign("s0", SMALL);
        assertThat(r.isResident("s0", "small")).isTrue();
        assertThat(r.isLoaded("s0", "small")).isFalse();

        r.markLoaded("s0", SMALL);
        assertThat(r.isLoaded("s0", "small")).isTrue();
    }

    @Test
    void assign_memoryShort_evictsAndForgetsLoadedState() {
        ModelRegistry r = registry(1);
        r.markLoaded("s0", SMALL);

        assertThat(r.assign("s0", BASE)).containsExactly("small");
        assertThat(r.isResident("s0", "small")).isFalse();
        assertThat(r.isLoaded("s0", "small")).isFalse();
        assertThat(r.residentServers("small")).isEmpty();
    }

    @Test
    void applyTelemetry_replacesTheServersState() {
        ModelRegistry r = registry(2);
        r.markLoaded("s0", SMALL);
        r.beginRequest("s0");

        r.applyTelemetry("s0", 2000, 2, Map.of("base", 900.0));
        r.applyTelemetry("s9", 1000, 0, Map.of("small", 300.0));

        assertThat(r.isResident("s0", "small")).isFalse();
        assertThat(r.isLoaded("s0", "base")).isTrue();
        assertThat(r.ongoing("s0")).isEqualTo(2);
        assertThat(r.residentServers("small")).containsExactly("s9");
        assertThatThrownBy(() -> r.applyTelemetry("s1", 1000, -1, Map.of())).hasMessageContaining("ongoing (-1)");
    }

    @Test
    void snapshotRestore_roundTrips() {
        ModelRegistry r = new ModelRegistry(2);
        r.addServer("a", 1000);
        r.addServer("b", 1000);
        r.markLoaded("a", SMALL);
        r.assign("a", new ModelProfile("tiny", 100, 1, 1, 0));
        r.beginRequest("a");

        ModelRegistry back = ModelRegistry.restore(r.snapshot());

        assertThat(back.snapshot()).isEqualTo(r.snapshot());
        assertThat(back.isLoaded("a", "small")).isTrue();
        assertThat(back.isLoaded("a", "tiny")).isFalse();
        assertThat(back.isResident("a", "tiny")).isTrue();
        assertThat(back.targetOngoingRequests()).isEqualTo(2);
    }

    @Test
    void defaultTarget_isTheThesisThree() {
        assertThat(new ModelRegistry().targetOngoingRequests()).isEqualTo(3);
    }

    @Test
    void badInput_namesTheFieldOrServer() {
        ModelRegistry r = registry(1);
        assertThatThrownBy(() -> r.endRequest("s0")).isInstanceOf(IllegalStateException.class).hasMessageContaining("BUG");
        assertThatThrownBy(() -> r.ongoing("nope")).hasMessageContaining("unknown server 'nope'");
        assertThatThrownBy(() -> r.addServer("s0", 5)).hasMessageContaining("already registered");
        assertThatThrownBy(() -> new ModelRegistry(0)).hasMessageContaining("targetOngoingRequests (0)");
    }
}
