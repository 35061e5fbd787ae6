package dev.nona.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class ResumptionTest {
    /** The traffic's start, epoch ms: the faults' times are from it, the write times are not. */
    private static final long S = 1_700_000_000_000L;

    private final DecisionTimes times = new DecisionTimes(S - 60_000);

    private static FaultRunner.Injected fault(FaultKind kind, long began, long ended) {
        String server = kind.targetsServer() ? "s1" : "";
        int perSecond = kind == FaultKind.MALFORMED_BURST ? 100 : 0;
        long duration = ended < 0 ? 0 : ended - began;
        return new FaultRunner.Injected(new ScheduledFault(kind, began, duration, server, perSecond), began, ended);
    }

    /** Decisions written at {@code S + t} for each t in [from, to) every {@code step} ms. */
    private void every(long from, long to, long step) {
        for (long t = from; t < to; t += step) {
            times.add(S + t);
        }
    }

    @Test
    void brokerKill_resumesFromTheFirstDecisionWrittenAfterItsEnd_notOneWrittenBeforeOrAtIt() {
        every(0, 10_000, 10); // up to 9,990
        times.add(S + 10_500); // handed to the producer during the outage
        times.add(S + 19_999);
        times.add(S + 20_000); // at the end: not after it
        every(21_234, 40_000, 100);
        Resumption r = Resumption.of(fault(FaultKind.BROKER_KILL, 10_000, 20_000), S, times);
        assertThat(r.endMillis()).isEqualTo(20_000);
        assertThat(r.resumeMillis()).isEqualTo(1_234);
        assertThat(r.longestGapMillis()).isEqualTo(9_499); // 10,500 -> 19,999
    }

    @Test
    void longestGap_countsTheGapOpenAtTheBeginning_notOneBeginningAfterTheWindow() {
        every(0, 9_901, 100); // the last at 9,900
        every(12_000, 30_450, 10); // the last at 30,440: at the window's edge (20,000 + 10,000), after it
        every(45_000, 50_000, 10); // a gap of 14,560 that begins after the window: not the fault's
        Resumption r = Resumption.of(fault(FaultKind.CONTROLLER_KILL, 10_000, 20_000), S, times);
        assertThat(r.resumeMillis()).isEqualTo(10); // 20,010
        assertThat(r.longestGapMillis()).isEqualTo(2_100); // 9,900 -> 12,000, begun before the fault
    }

    @Test
    void longestGap_aGapBeginningJustInsideTheWindowCountsWhole() {
        every(0, 20_011, 10); // the last at 20,010
        times.add(S + 29_999); // inside [B, E + 10 s)
        times.add(S + 45_000);
        Resumption r = Resumption.of(fault(FaultKind.TELEMETRY_STALL, 10_000, 20_000), S, times);
        assertThat(r.resumeMillis()).isEqualTo(10);
        assertThat(r.longestGapMillis()).isEqualTo(15_001);
    }

    @Test
    void taskManagerKill_endsAtTheKill_notWhenTheNewSpareStarted() {
        every(0, 10_000, 100); // the last at 9,900
        every(18_500, 30_000, 100);
        Resumption r = Resumption.of(fault(FaultKind.TASKMANAGER_KILL, 10_000, 13_000), S, times);
        assertThat(r.endMillis()).isEqualTo(10_000);
        assertThat(r.resumeMillis()).isEqualTo(8_500);
        assertThat(r.longestGapMillis()).isEqualTo(8_600);
    }

    @Test
    void serverSilentForGood_endsAtItsOnset() {
        every(0, 30_000, 50);
        Resumption r = Resumption.of(fault(FaultKind.SERVER_SILENT_FOR_GOOD, 10_020, -1), S, times);
        assertThat(r.endMillis()).isEqualTo(10_020);
        assertThat(r.resumeMillis()).isEqualTo(30);
        assertThat(r.longestGapMillis()).isEqualTo(50);
    }

    @Test
    void noDecisionAfterTheEnd_nullFigures() {
        every(0, 20_001, 10);
        Resumption r = Resumption.of(fault(FaultKind.BROKER_KILL, 10_000, 20_000), S, times);
        assertThat(r.resumeMillis()).isNull();
        assertThat(r.longestGapMillis()).isNull();
        assertThat(r.toJson()).containsEntry("resumeFromSeconds", 20.0).containsEntry("resumeMillis", null);
    }

    @Test
    void writeOrderDoesNotMatter() {
        List<Long> ts = new ArrayList<>();
        for (long t = 0; t < 10_000; t += 10) {
            ts.add(t);
        }
        for (long t = 11_700; t < 30_000; t += 10) {
            ts.add(t);
        }
        Collections.shuffle(ts, new Random(7));
        ts.forEach(t -> times.add(S + t));
        Resumption r = Resumption.of(fault(FaultKind.BROKER_KILL, 10_000, 11_000), S, times);
        assertThat(r.resumeMillis()).isEqualTo(700);
        assertThat(r.longestGapMillis()).isEqualTo(1_710);
    }

    @Test
    void decisionTimes_beforeTheOrigin_areNotKept() {
        times.add(S - 60_001);
        times.add(S - 60_000);
        assertThat(times.untimed()).isEqualTo(1);
        assertThat(times.firstAfter(S - 120_000)).isEqualTo(S - 60_000);
        assertThat(times.lastAtOrBefore(S - 60_001)).isEqualTo(-1);
        assertThat(times.firstAfter(S - 60_000)).isEqualTo(-1);
    }

    @Test
    void byKind_maxPerKind_andTheGoalsOfBrokerAndTaskManagerKills() {
        List<FaultRunner.Injected> faults = List.of(fault(FaultKind.BROKER_KILL, 0, 5_000),
                fault(FaultKind.TELEMETRY_STALL, 10_000, 15_000), fault(FaultKind.BROKER_KILL, 20_000, 25_000),
                fault(FaultKind.TASKMANAGER_KILL, 30_000, 31_000), fault(FaultKind.TASKMANAGER_KILL, 40_000, 41_000));
        List<Resumption> rs = List.of(new Resumption(5_000, 1_500L, 6_000L), new Resumption(15_000, 5L, 40L),
                new Resumption(25_000, 2_001L, 5_500L), new Resumption(30_000, 9_000L, 9_100L),
                new Resumption(40_000, null, null));
        Map<String, Map<String, Object>> k = Resumption.byKind(faults, rs);
        assertThat(k.keySet()).containsExactly("broker-kill", "taskmanager-kill", "telemetry-stall");
        assertThat(k.get("broker-kill")).containsEntry("faults", 2).containsEntry("resumed", 2)
                .containsEntry("maxResumeMillis", 2_001L).containsEntry("maxLongestGapMillis", 6_000L)
                .containsEntry("goalMillis", 2_000L).containsEntry("withinGoal", false);
        assertThat(k.get("taskmanager-kill")).containsEntry("faults", 2).containsEntry("resumed", 1)
                .containsEntry("maxResumeMillis", 9_000L).containsEntry("withinGoal", false);
        assertThat(k.get("telemetry-stall")).containsEntry("maxResumeMillis", 5L).doesNotContainKey("goalMillis");
        Map<String, Map<String, Object>> one = Resumption.byKind(faults.subList(0, 1), rs.subList(0, 1));
        assertThat(one.get("broker-kill")).containsEntry("withinGoal", true);
    }
}
