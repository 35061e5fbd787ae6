package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ServerLivenessTest {
    /**
     * Timeout 3 s. Servers 0 and 1 heard at 10 s; then server 0's backlog is read ahead of server 1's (as after a
     * broker outage, one telemetry partition's backlog before another's): its reports of 11..20 s arrive while the
     * caller's clock (the telemetry stream's, held back by server 1's unread backlog) stands at 12 s. Server 1 is
     * not silent at 12 s: it was heard 2 s before, by the clock; a report does not move the clock.
     */
    @Test
    void oneServersReportsReadAhead_doNotSilenceTheOthers() {
        ServerLiveness l = new ServerLiveness(3_000);
        l.heard(0, 10_000);
        l.heard(1, 10_000);
        for (long t = 11_000; t <= 20_000; t += 1_000) {
            l.heard(0, t);
        }
        List<Integer> silent = new ArrayList<>();
        l.expire(12_000, silent::add);
        assertThat(silent).isEmpty();
        assertThat(l.nextDeadline()).isEqualTo(13_001);
        l.expire(13_001, silent::add);
        assertThat(silent).as("server 1 unheard for more than 3 s by the clock").containsExactly(1);
        assertThat(l.heardAt(1)).isEqualTo(10_000);
    }

    /** Silent in order of their last report, each once; a report makes a server live again; a clock going back stands. */
    @Test
    void expire_inOrderOfTheLastReport_onceEach_andAgainAfterANewReport() {
        ServerLiveness l = new ServerLiveness(1_000);
        l.heard(2, 5_000);
        l.heard(0, 3_000);
        l.heard(1, 4_000);
        l.heard(0, 2_000); // older than its last: its time does not go back
        List<Integer> silent = new ArrayList<>();
        l.expire(6_500, silent::add);
        assertThat(silent).containsExactly(0, 1, 2);
        l.expire(1_000, silent::add);
        l.expire(7_000, silent::add);
        assertThat(silent).as("once each").containsExactly(0, 1, 2);
        assertThat(l.nextDeadline()).isEqualTo(Long.MAX_VALUE);
        l.heard(1, 6_800);
        l.expire(5_000, silent::add); // the clock stays at 7 s
        assertThat(silent).containsExactly(0, 1, 2);
        l.expire(7_801, silent::add);
        assertThat(silent).containsExactly(0, 1, 2, 1);
        l.heard(2, 9_000);
        l.forget(2);
        l.expire(20_000, silent::add);
        assertThat(silent).as("a forgotten server cannot go silent").containsExactly(0, 1, 2, 1);
    }
}
