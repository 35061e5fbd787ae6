package dev.nona.controller.loop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class CausesTest {
    @Test
    void tenThousandServerChanges_stayWithinTheBound_andAreCounted() {
        String pending = null;
        for (int i = 0; i < 10_000; i++) {
            pending = Causes.append(pending, "cluster: server s" + i + " down (reported up=false)");
        }
        assertThat(pending.length()).isLessThanOrEqualTo(Causes.MAX_CHARS + 40);
        assertThat(pending).startsWith("cluster: server s0 down").endsWith(" more");
        int kept = pending.split("; cluster:").length;
        assertThat(pending).endsWith("; ... and " + (10_000 - kept) + " more");
    }

    @Test
    void aSingleHugeCause_isCut() {
        assertThat(Causes.append(null, "x".repeat(5_000))).hasSize(Causes.MAX_CHARS + 3);
        assertThat(Causes.append("a", "b")).isEqualTo("a; b");
    }
}
