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

    /** The resumption after {@code f} alone, with requests sent until long after it. */
    private Resumption one(FaultRunner.Injected f) {
        return Resumption.of(List.of(f), S, S + 1_000_000, times).get(0);
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
        Resumption r = one(fault(FaultKind.BROKER_KILL, 10_000, 20_000));
        assertThat(r.endMillis()).isEqualTo(20_000);
        assertThat(r.resumeMillis()).isEqualTo(1_234);
        assertThat(r.longestGapMillis()).isEqualTo(9_499); // 10,500 -> 19,999
    }

    @Test
    void gapWindow_endsBeforeTheScheduleInjectsTheNextFault() {
        for (long seed = 0; seed < 400; seed++) {
            List<ScheduledFault> fs = ChaosSchedule.draw(seed, 600_000,
                    seed % 2 == 0 ? FaultKind.embedded() : FaultKind.onCluster(), 16).faults();
            for (int i = 0; i + 1 < fs.size(); i++) {
                ScheduledFault f = fs.get(i);
                assertThat(fs.get(i + 1).atMillis()).as("seed %d, after %s", seed, f)
                        .isGreaterThanOrEqualTo(f.endMillis() + Resumption.gapWindowMillis(f.kind()));
            }
        }
    }

    @Test
    void longestGap_countsTheGapOpenAtTheBeginning_notOneBeginningAfterTheWindow() {
        long w = Resumption.gapWindowMillis(FaultKind.CONTROLLER_KILL);
        every(0, 9_901, 100); // the last at 9,900
        every(12_000, 20_000 + w, 10); // the last at E + W - 10
        times.add(S + 20_000 + w); // at the window's edge: the gap after it is not the fault's
        every(45_000, 50_000, 10);
        Resumption r = one(fault(FaultKind.CONTROLLER_KILL, 10_000, 20_000));
        assertThat(r.resumeMillis()).isEqualTo(10); // 20,010
        assertThat(r.longestGapMillis()).isEqualTo(2_100); // 9,900 -> 12,000, begun before the fault
    }

    @Test
    void longestGap_aGapBeginningJustInsideTheWindowCountsWhole() {
        long w = Resumption.gapWindowMillis(FaultKind.TELEMETRY_STALL);
        every(0, 20_011, 10); // the last at 20,010
        times.add(S + 20_000 + w - 1); // inside [B, E + W)
        times.add(S + 45_000);
        Resumption r = one(fault(FaultKind.TELEMETRY_STALL, 10_000, 20_000));
        assertThat(r.resumeMillis()).isEqualTo(10);
        assertThat(r.longestGapMillis()).isEqualTo(45_000 - (20_000 + w - 1));
    }

    @Test
    void jobManagerKill_theFailoverGapSecondsAfterTheKillIsItsOwn() {
        every(0, 22_001, 10); // the tasks go on deciding after the kill at 10,000, until the failover at 22,000
        every(40_000, 60_000, 10);
        Resumption r = one(fault(FaultKind.JOBMANAGER_KILL, 10_000, 14_000));
        assertThat(r.resumeMillis()).isEqualTo(10);
        assertThat(r.longestGapMillis()).isEqualTo(18_000);
        Resumption stall = one(fault(FaultKind.TELEMETRY_STALL, 5_000, 10_000));
        assertThat(stall.longestGapMillis()).isEqualTo(10); // 22,000 is past its 5 s
    }

    @Test
    void taskManagerKill_endsAtTheKill_notWhenTheNewSpareStarted() {
        every(0, 10_000, 100); // the last at 9,900
        every(18_500, 30_000, 100);
        Resumption r = one(fault(FaultKind.TASKMANAGER_KILL, 10_000, 13_000));
        assertThat(r.endMillis()).isEqualTo(10_000);
        assertThat(r.resumeMillis()).isEqualTo(8_500);
        assertThat(r.longestGapMillis()).isEqualTo(8_600);
    }

    @Test
    void serverSilentForGood_endsAtItsOnset() {
        every(0, 30_000, 50);
        Resumption r = one(fault(FaultKind.SERVER_SILENT_FOR_GOOD, 10_020, -1));
        assertThat(r.endMillis()).isEqualTo(10_020);
        assertThat(r.resumeMillis()).isEqualTo(30);
        assertThat(r.longestGapMillis()).isEqualTo(50);
    }

    @Test
    void noDecisionAfterTheEnd_nullFigures() {
        every(0, 20_001, 10);
        Resumption r = one(fault(FaultKind.BROKER_KILL, 10_000, 20_000));
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
        Resumption r = one(fault(FaultKind.BROKER_KILL, 10_000, 11_000));
        assertThat(r.resumeMillis()).isEqualTo(700);
        assertThat(r.longestGapMillis()).isEqualTo(1_710);
    }

    @Test
    void decisionTimes_beforeTheOrigin_orADayAfterIt_areNotKept() {
        times.add(S - 60_001);
        times.add(S - 60_000);
        times.add(S - 60_000 + DecisionTimes.SPAN_MILLIS); // a stray far-future timestamp
        assertThat(times.untimed()).isEqualTo(2);
        assertThat(times.firstAfter(S - 120_000)).isEqualTo(S - 60_000);
        assertThat(times.lastAtOrBefore(S - 60_001)).isEqualTo(-1);
        assertThat(times.firstAfter(S - 60_000)).isEqualTo(-1);
    }

    @Test
    void longestGap_aGapThatBeginsInTheNextFaultIsThatOnes() {
        every(0, 10_000, 10);
        every(15_000, 18_000, 10); // the stall's own gap: 9,990 -> 15,000
        every(40_000, 50_000, 10); // 17,990 -> 40,000 begins in the controller kill, begun at 17,985
        List<Resumption> rs = Resumption.of(List.of(fault(FaultKind.TELEMETRY_STALL, 10_000, 12_000),
                fault(FaultKind.CONTROLLER_KILL, 17_985, 18_500)), S, S + 1_000_000, times);
        assertThat(rs.get(0).longestGapMillis()).isEqualTo(5_010);
        assertThat(rs.get(0).resumeMillis()).isEqualTo(3_000);
        assertThat(rs.get(1).longestGapMillis()).isEqualTo(22_010);
        assertThat(rs.get(1).resumeMillis()).isEqualTo(21_500);
    }

    @Test
    void decidingWhenBegan_aDecisionInTheSecondBeforeIt() {
        every(0, 9_001, 100); // the last at 9,000
        every(20_000, 30_000, 10);
        assertThat(one(fault(FaultKind.BROKER_KILL, 10_000, 15_000)).decidingWhenBegan()).isTrue();
        assertThat(one(fault(FaultKind.BROKER_KILL, 10_001, 15_000)).decidingWhenBegan()).isFalse();
    }

    @Test
    void afterTraffic_anEndAfterTheLastRequestWasSent() {
        every(0, 20_001, 10);
        List<Resumption> rs = Resumption.of(List.of(fault(FaultKind.TELEMETRY_STALL, 15_000, 19_999),
                fault(FaultKind.TELEMETRY_STALL, 21_000, 22_000)), S, S + 20_000, times);
        assertThat(rs.get(0).afterTraffic()).isFalse();
        assertThat(rs.get(0).resumeMillis()).isEqualTo(1);
        assertThat(rs.get(1).afterTraffic()).isTrue();
        assertThat(rs.get(1).resumeMillis()).isNull();
        assertThat(rs.get(1).toJson()).containsEntry("afterTraffic", true).containsEntry("decidingWhenBegan", true);
    }

    @Test
    void byKind_maxPerKind_andTheGoals_judgedOnTheFaultsThatBeganWhileDeciding() {
        List<FaultRunner.Injected> faults = List.of(fault(FaultKind.BROKER_KILL, 0, 5_000),
                fault(FaultKind.TELEMETRY_STALL, 10_000, 15_000), fault(FaultKind.BROKER_KILL, 20_000, 25_000),
                fault(FaultKind.TASKMANAGER_KILL, 30_000, 31_000), fault(FaultKind.TASKMANAGER_KILL, 40_000, 41_000),
                fault(FaultKind.BROKER_KILL, 50_000, 55_000));
        List<Resumption> rs = List.of(new Resumption(5_000, 1_500L, 6_000L, true, false),
                new Resumption(15_000, 5L, 40L, true, false), new Resumption(25_000, 2_001L, 5_500L, true, false),
                new Resumption(30_000, 9_000L, 9_100L, true, false), new Resumption(40_000, null, null, true, false),
                new Resumption(55_000, 30_000L, 80_000L, false, false));
        Map<String, Map<String, Object>> k = Resumption.byKind(faults, rs);
        assertThat(k.keySet()).containsExactly("broker-kill", "taskmanager-kill", "telemetry-stall");
        assertThat(k.get("broker-kill")).containsEntry("faults", 3).containsEntry("resumed", 3)
                .containsEntry("decidingWhenBegan", 2).containsEntry("maxResumeMillis", 30_000L)
                .containsEntry("maxLongestGapMillis", 80_000L).containsEntry("goalMillis", 2_000L)
                .containsEntry("withinGoal", false); // 2,001 ms
        assertThat(k.get("taskmanager-kill")).containsEntry("faults", 2).containsEntry("resumed", 1)
                .containsEntry("maxResumeMillis", 9_000L).containsEntry("withinGoal", false); // one never resumed
        assertThat(k.get("telemetry-stall")).containsEntry("maxResumeMillis", 5L).doesNotContainKey("goalMillis");
        // the one that began with decisions stopped is not judged; one with no decision after the traffic passes
        assertThat(Resumption.byKind(List.of(faults.get(0), faults.get(5)), List.of(rs.get(0), rs.get(5)))
                .get("broker-kill")).containsEntry("withinGoal", true);
        assertThat(Resumption.byKind(List.of(faults.get(5)), List.of(rs.get(5))).get("broker-kill"))
                .containsEntry("withinGoal", null);
        assertThat(Resumption.byKind(List.of(faults.get(4)), List.of(new Resumption(40_000, null, null, true, true)))
                .get("taskmanager-kill")).containsEntry("withinGoal", true).containsEntry("maxResumeMillis", null);
    }

    @Test
    void taskManagerKill_isJudgedOnTheGapAfterIt_whenTheSurvivorDecidedAMomentAfterTheKill() {
        // the job holds a slot on the other TaskManager too: its tasks write a decision 5 ms after the kill, then
        // nothing until the restarted job decides
        FaultRunner.Injected kill = fault(FaultKind.TASKMANAGER_KILL, 30_000, 33_000);
        every(20_000, 30_006, 5);
        every(42_005, 60_000, 5);
        Resumption r = one(kill);
        assertThat(r.resumeMillis()).isEqualTo(5L);
        assertThat(r.longestGapMillis()).isEqualTo(12_000L);
        assertThat(r.judgedMillis(FaultKind.TASKMANAGER_KILL)).isEqualTo(12_000L);
        assertThat(Resumption.byKind(List.of(kill), List.of(r)).get("taskmanager-kill"))
                .containsEntry("maxResumeMillis", 5L).containsEntry("withinGoal", false);
        // a broker kill is judged from the broker's return: its outage is not the controller's
        Resumption broker = new Resumption(5_000, 300L, 30_000L, true, false);
        assertThat(broker.judgedMillis(FaultKind.BROKER_KILL)).isEqualTo(300L);
        assertThat(Resumption.byKind(List.of(fault(FaultKind.BROKER_KILL, 0, 5_000)), List.of(broker))
                .get("broker-kill")).containsEntry("withinGoal", true);
    }
}
