package dev.nona.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
