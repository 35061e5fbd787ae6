package dev.nona.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class TwinOptionsTest {

    @Test
    void parseSlow_idAndFactor() {
        assertThat(TwinOptions.parseSlow(List.of("s-1:2", "s-3:1.5"))).isEqualTo(Map.of("s-1", 2.0, "s-3", 1.5));
    }

    @Test
    void parseSlow_badValues_nameTheOptionAndTheValue() {
        assertThatThrownBy(() -> TwinOptions.parseSlow(List.of("s-1:x")))
                .hasMessage("--slow-server ('s-1:x'): FACTOR ('x') must be a finite number >= 1");
        assertThatThrownBy(() -> TwinOptions.parseSlow(List.of("s-1:0.5")))
                .hasMessage("--slow-server ('s-1:0.5'): FACTOR (0.5) must be a finite number >= 1");
        assertThatThrownBy(() -> TwinOptions.parseSlow(List.of("s-1")))
                .hasMessage("--slow-server ('s-1') must be ID:FACTOR");
        assertThatThrownBy(() -> TwinOptions.parseSlow(List.of("s-1:2", "s-1:3")))
                .hasMessage("--slow-server ('s-1:3'): server 's-1' is given twice");
    }

    @Test
    void parseSilence_badValues_nameTheOptionAndTheValue() {
        assertThat(TwinOptions.parseSilence(List.of("s-0:0"))).isEqualTo(Map.of("s-0", 0.0));
        assertThatThrownBy(() -> TwinOptions.parseSilence(List.of("s-0:-1")))
                .hasMessage("--silence-server ('s-0:-1'): AT_SECONDS (-1) must be a finite number >= 0");
        assertThatThrownBy(() -> TwinOptions.parseSilence(List.of(":5")))
                .hasMessage("--silence-server (':5') must be ID:AT_SECONDS");
    }

    @Test
    void constructor_faultOnAServerTheTwinDoesNotHave_namesTheOptionAndTheServer() {
        assertThatThrownBy(() -> new TwinOptions(4, 1e12, 1e10, 3, 0.5, 10, Map.of("s-4", 2.0), Map.of()))
                .hasMessage("--slow-server: server 's-4' is not one of s-0 .. s-3");
        assertThatThrownBy(() -> new TwinOptions(4, 1e12, 1e10, 3, 0.5, 10, Map.of(), Map.of("server-1", 2.0)))
                .hasMessage("--silence-server: server 'server-1' is not one of s-0 .. s-3");
    }

    @Test
    void constructor_badNumbers_nameTheOption() {
        assertThatThrownBy(() -> new TwinOptions(0, 1e12, 1e10, 3, 0.5, 10, Map.of(), Map.of()))
                .hasMessage("--servers (0) must be in [1, 100000]");
        assertThatThrownBy(() -> new TwinOptions(4, 0, 1e10, 3, 0.5, 10, Map.of(), Map.of()))
                .hasMessage("--ops-per-second (0.0) must be finite and > 0");
        assertThatThrownBy(() -> new TwinOptions(4, 1e12, Double.NaN, 3, 0.5, 10, Map.of(), Map.of()))
                .hasMessage("--link-bits-per-second (NaN) must be finite and > 0");
        assertThatThrownBy(() -> new TwinOptions(4, 1e12, 1e10, -1, 0.5, 10, Map.of(), Map.of()))
                .hasMessage("--cache-slots (-1) must be >= 0");
        assertThatThrownBy(() -> new TwinOptions(4, 1e12, 1e10, 3, -2, 10, Map.of(), Map.of()))
                .hasMessage("--cold-start-seconds (-2.0) must be finite and >= 0");
    }
}
