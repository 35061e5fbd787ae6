package dev.nona.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class ChaosScheduleTest {
    private static final Set<FaultKind> ALL = EnumSet.allOf(FaultKind.class);
    private static final Set<FaultKind> EMBEDDED = FaultKind.embedded();
    private static final long SHORT = 150_000;

    @Test
    void replay_sameSeed_sameSchedule() {
        assertThat(ChaosSchedule.draw(42, 300_000, ALL, 16)).isEqualTo(ChaosSchedule.draw(42, 300_000, ALL, 16));
        assertThat(ChaosSchedule.draw(42, 300_000, ALL, 16).faults())
                .isNotEqualTo(ChaosSchedule.draw(43, 300_000, ALL, 16).faults());
    }

    @Test
    void shortForm_holdsEveryKindOfTheEmbeddedController_whateverTheSeed() {
        assertThat(ChaosSchedule.minTrafficMillis(EMBEDDED)).isLessThanOrEqualTo(SHORT);
        for (long seed = 0; seed < 500; seed++) {
            assertThat(ChaosSchedule.draw(seed, SHORT, EMBEDDED, 16).kinds()).as("seed %d", seed).isEqualTo(EMBEDDED);
        }
    }

    @Test
    void kindsOfEachTarget_eachProcessKillOnlyWhereThatProcessIs_theRestOnBoth() {
        assertThat(EMBEDDED).contains(FaultKind.CONTROLLER_KILL, FaultKind.BROKER_KILL)
                .doesNotContain(FaultKind.TASKMANAGER_KILL, FaultKind.JOBMANAGER_KILL);
        assertThat(FaultKind.onCluster()).contains(FaultKind.TASKMANAGER_KILL, FaultKind.JOBMANAGER_KILL,
                FaultKind.BROKER_KILL).doesNotContain(FaultKind.CONTROLLER_KILL);
        Set<FaultKind> both = EnumSet.copyOf(EMBEDDED);
        both.retainAll(FaultKind.onCluster());
        assertThat(both).containsExactlyInAnyOrder(FaultKind.BROKER_KILL, FaultKind.TELEMETRY_STALL,
                FaultKind.MALFORMED_BURST, FaultKind.SERVER_SILENT, FaultKind.SERVER_SILENT_FOR_GOOD);
    }

    @Test
    void faults_neverOverlap_andLeaveEachOnesGap_withinTheTraffic() {
        for (long seed = 0; seed < 500; seed++) {
            List<ScheduledFault> faults = ChaosSchedule.draw(seed, 600_000, ALL, 16).faults();
            assertThat(faults.get(0).atMillis()).isGreaterThanOrEqualTo(ChaosSchedule.LEAD_MILLIS);
            assertThat(faults.get(faults.size() - 1).endMillis())
                    .isLessThanOrEqualTo(600_000 - ChaosSchedule.TAIL_MILLIS);
            for (int i = 1; i < faults.size(); i++) {
                ScheduledFault before = faults.get(i - 1);
                assertThat(faults.get(i).atMillis()).as("seed %d, fault %d", seed, i)
                        .isGreaterThanOrEqualTo(before.endMillis() + before.kind().minGapMillis);
            }
        }
    }

    @Test
    void serversSilentForGood_atMostAQuarter_andNeverSilencedAgain() {
        for (long seed = 0; seed < 200; seed++) {
            Set<String> lost = new HashSet<>();
            for (ScheduledFault f : ChaosSchedule.draw(seed, 1_800_000, ALL, 8).faults()) {
                if (f.kind().targetsServer()) {
                    assertThat(lost).as("seed %d", seed).doesNotContain(f.server());
                }
                if (f.kind() == FaultKind.SERVER_SILENT_FOR_GOOD) {
                    lost.add(f.server());
                }
            }
            assertThat(lost).as("seed %d", seed).hasSizeLessThanOrEqualTo(2);
        }
    }

    @Test
    void kinds_onlyThoseTheRunCanInject() {
        Set<FaultKind> traffic = EnumSet.of(FaultKind.TELEMETRY_STALL, FaultKind.MALFORMED_BURST);
        assertThat(ChaosSchedule.draw(7, 300_000, traffic, 4).kinds()).isEqualTo(traffic);
        assertThatThrownBy(() -> ChaosSchedule.draw(7, 300_000, EnumSet.noneOf(FaultKind.class), 4))
                .hasMessageContaining("fault kinds");
    }

    @Test
    void scheduledFault_checksItsTarget() {
        assertThatThrownBy(() -> new ScheduledFault(FaultKind.SERVER_SILENT, 0, 5_000, "", 0))
                .hasMessageContaining("server ('') must be named");
        assertThatThrownBy(() -> new ScheduledFault(FaultKind.MALFORMED_BURST, 0, 1_000, "", 0))
                .hasMessageContaining("perSecond (0) must be > 0");
        assertThatThrownBy(() -> FaultKind.parse("disk-full")).hasMessageContaining("broker-kill");
    }
}
