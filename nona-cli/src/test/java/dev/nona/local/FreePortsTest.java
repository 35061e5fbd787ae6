package dev.nona.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

final class FreePortsTest {

    @Test
    void distinct_givesDifferentPorts_noneOfThemTaken() {
        int taken = FreePorts.next();
        for (int round = 0; round < 20; round++) {
            int[] ports = FreePorts.distinct(8, taken);
            assertThat(ports).hasSize(8).doesNotHaveDuplicates().doesNotContain(taken);
            assertThat(Arrays.stream(ports).allMatch(p -> p > 0 && p <= 65535)).isTrue();
        }
    }

    @Test
    void distinct_rejectsANegativeCount_namingIt() {
        assertThat(FreePorts.distinct(0)).isEmpty();
        assertThatThrownBy(() -> FreePorts.distinct(-1)).hasMessage("count must be >= 0, got -1");
    }
}
