package dev.nona.chaos;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How soon decisions resumed after one injected fault, from the decisions' write times ({@link DecisionTimes}, the
 * record timestamps of {@code placement-decisions}: the controller's producer stamps a decision when it is handed
 * the decision). Any decision counts (a duplicate of a replayed request too: it is the controller deciding again).
 *
 * <p>The fault's <em>end</em> $E$, from which decisions are to resume ({@link #endMillis}):
 * <ul>
 *   <li>{@code broker-kill}: the restarted broker accepts writes again (acknowledges a probe record,
 *       {@link BrokerFaults});</li>
 *   <li>{@code controller-kill}: the controller process started again ({@code bin/nona run}'s JVM launched; its
 *       start and restore count in the resumption);</li>
 *   <li>{@code taskmanager-kill}, {@code jobmanager-kill}: the kill itself (the process gone). What the fault's
 *       duration adds, a new spare TaskManager or the killed JobManager back as a standby, is not what the job's
 *       recovery waits for (it restarts on the spare it has; the standby takes over);</li>
 *   <li>{@code telemetry-stall}: the reports let through again (the servers' next round, within a second);</li>
 *   <li>{@code malformed-burst}: the last malformed record sent (its publisher closed);</li>
 *   <li>{@code server-silent}: the server reports again (from its next round);</li>
 *   <li>{@code server-silent-for-good}: its onset (it has no other end).</li>
 * </ul>
 * Then {@code resumeMillis} $= d_E - E$ for the first write time $d_E > E$ (a decision written at or before the end
 * does not count), and {@code longestGapMillis} $= \max (b - a)$ over consecutive write times $a < b$ with $b >$ the
 * fault's beginning $B$ and $a < \min(E + W, B')$, $W$ the pause after the kind ({@link #gapWindowMillis}), $B'$ the
 * next fault's beginning (the
 * gap around $B$ counts from the last decision at or before $B$, or from $B$ when there was none since the traffic
 * started; a gap that begins in the next fault is that one's): how long decisions were absent during the fault and
 * just after it. Both are null when no decision was written after $E$. Two flags qualify the figures:
 * {@code decidingWhenBegan}, a decision was written in the {@value #DECIDING_MILLIS} ms up to $B$ (else decisions had
 * stopped before the fault, e.g. a controller still restoring after the fault before, and the figures are as much
 * that one's); {@code afterTraffic}, $E$ came after the last request was sent (with no decision after it there was
 * nothing left to decide, unless {@code every-request-decided} broke).
 *
 * @param endMillis         $E$, from the start of the traffic
 * @param resumeMillis      $d_E - E$, or null: no decision after $E$
 * @param longestGapMillis  the longest gap, or null: no decision after $E$
 * @param decidingWhenBegan a decision was written in the {@value #DECIDING_MILLIS} ms up to the fault's beginning
 * @param afterTraffic      $E$ came after the last request was sent
 */
record Resumption(long endMillis, Long resumeMillis, Long longestGapMillis, boolean decidingWhenBegan,
        boolean afterTraffic) {
    /**
     * How far after the end $E$ of a fault of {@code kind} a gap may begin and still be the fault's: the pause the
     * schedule leaves after that kind ({@link FaultKind}'s {@code minGapMillis}: 5 s after a traffic fault, 12 s
     * after a broker or controller kill, 15 s after a TaskManager kill, 25 s after a JobManager kill, whose standby
     * takes over once ZooKeeper's 10 s session expires). The next fault begins no earlier than that after the end
     * ({@link FaultRunner} moves the schedule by a late end), so the window ends before the next injection (a kill's
     * beginning is noted when the kill returns, a little after the process died).
     */
    static long gapWindowMillis(FaultKind kind) {
        return kind.minGapMillis;
    }

    /** Decisions were being written when a fault began if one was written this long before it, or less. */
    static final long DECIDING_MILLIS = 1_000;
    /** The goals of the project's requirement: decisions resume within 2 s after the broker accepts writes again,
     *  within 10 s after a TaskManager kill on the multi-process cluster. */
    static final Map<FaultKind, Long> GOAL_MILLIS = Map.of(FaultKind.BROKER_KILL, 2_000L,
            FaultKind.TASKMANAGER_KILL, 10_000L);

    /**
     * The time a fault is judged on against its goal ({@link #GOAL_MILLIS}). For a broker kill, {@code resumeMillis}:
     * from the broker accepting writes again (the outage itself, in the longest gap, is not the controller's). For a
     * TaskManager kill, the larger of {@code resumeMillis} and {@code longestGapMillis}: the kill is its end, and when
     * the job also holds a slot on another TaskManager ({@code control.slot-sharing-group}) the tasks there may write
     * a decision in the moment after the kill, before the failover cancels them; the gap that follows, until the
     * restarted job decides, is the recovery. Null when no decision came after the end.
     */
    Long judgedMillis(FaultKind kind) {
        if (resumeMillis == null) {
            return null;
        }
        return kind == FaultKind.TASKMANAGER_KILL && longestGapMillis != null
                ? Math.max(resumeMillis, longestGapMillis) : resumeMillis;
    }

    /** $E$ of {@code f} (from the start of the traffic): see the class comment. */
    static long endMillis(FaultRunner.Injected f) {
        return switch (f.fault().kind()) {
            case TASKMANAGER_KILL, JOBMANAGER_KILL, SERVER_SILENT_FOR_GOOD -> f.beganMillis();
            case BROKER_KILL, CONTROLLER_KILL, TELEMETRY_STALL, MALFORMED_BURST, SERVER_SILENT -> {
                if (f.endedMillis() < 0) {
                    throw new IllegalArgumentException("fault " + f.fault().kind().key() + " never ended");
                }
                yield f.endedMillis();
            }
        };
    }

    /**
     * The resumption after each of {@code injected} (in the order they were played, which is also the order of
     * their beginnings), whose times are from the start of the traffic at {@code trafficStartEpochMillis} (the wall
     * clock, as the write times); the last request was sent at {@code lastSentEpochMillis}.
     */
    static List<Resumption> of(List<FaultRunner.Injected> injected, long trafficStartEpochMillis,
            long lastSentEpochMillis, DecisionTimes times) {
        List<Resumption> out = new ArrayList<>(injected.size());
        for (int i = 0; i < injected.size(); i++) {
            long next = i + 1 < injected.size() ? trafficStartEpochMillis + injected.get(i + 1).beganMillis()
                    : Long.MAX_VALUE;
            out.add(of(injected.get(i), next, trafficStartEpochMillis, lastSentEpochMillis, times));
        }
        return out;
    }

    private static Resumption of(FaultRunner.Injected f, long nextBegan, long trafficStartEpochMillis,
            long lastSentEpochMillis, DecisionTimes times) {
        long endRel = endMillis(f);
        long began = trafficStartEpochMillis + f.beganMillis();
        long end = trafficStartEpochMillis + endRel;
        long before = times.lastAtOrBefore(began);
        boolean deciding = before >= 0 && began - before <= DECIDING_MILLIS;
        boolean afterTraffic = end > lastSentEpochMillis;
        long first = times.firstAfter(end);
        if (first < 0) {
            return new Resumption(endRel, null, null, deciding, afterTraffic);
        }
        long a = before < 0 ? began : before;
        long until = Math.min(end + gapWindowMillis(f.fault().kind()), nextBegan);
        long longest = 0;
        while (a < until) {
            long b = times.firstAfter(a);
            if (b < 0) {
                break;
            }
            if (b <= a) {
                throw new IllegalStateException("BUG: the write after " + a + " is at " + b);
            }
            longest = Math.max(longest, b - a);
            a = b;
        }
        return new Resumption(endRel, first - end, longest, deciding, afterTraffic);
    }

    /** The fields added to a fault's JSON ({@link FaultRunner.Injected#toJson()}). */
    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resumeFromSeconds", endMillis / 1000.0);
        m.put("resumeMillis", resumeMillis);
        m.put("longestGapMillis", longestGapMillis);
        m.put("decidingWhenBegan", decidingWhenBegan);
        m.put("afterTraffic", afterTraffic);
        return m;
    }

    /**
     * Per fault kind, in the order of the kinds: {@code faults}, {@code resumed} (how many had a decision after their
     * end), {@code decidingWhenBegan} (how many began while decisions were being written), {@code maxResumeMillis}
     * and {@code maxLongestGapMillis} (over those resumed; null when none did), and for a kind with a goal
     * ({@link #GOAL_MILLIS}) {@code goalMillis} and {@code withinGoal}: over the faults of the kind that began while
     * decisions were being written (the goal is about a controller that was deciding), whether each resumed within
     * the goal ({@link #judgedMillis}) or, with no decision after it, ended after the traffic; null when none began
     * so.
     * {@code resumptions} is parallel to {@code injected}.
     */
    static Map<String, Map<String, Object>> byKind(List<FaultRunner.Injected> injected,
            List<Resumption> resumptions) {
        if (injected.size() != resumptions.size()) {
            throw new IllegalArgumentException(injected.size() + " faults but " + resumptions.size()
                    + " resumptions");
        }
        Map<FaultKind, List<Resumption>> byKind = new EnumMap<>(FaultKind.class);
        for (int i = 0; i < injected.size(); i++) {
            byKind.computeIfAbsent(injected.get(i).fault().kind(), k -> new ArrayList<>()).add(resumptions.get(i));
        }
        Map<String, Map<String, Object>> json = new LinkedHashMap<>();
        byKind.forEach((kind, rs) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            List<Resumption> resumed = rs.stream().filter(r -> r.resumeMillis() != null).toList();
            m.put("faults", rs.size());
            m.put("resumed", resumed.size());
            m.put("decidingWhenBegan", (int) rs.stream().filter(Resumption::decidingWhenBegan).count());
            m.put("maxResumeMillis", resumed.stream().map(Resumption::resumeMillis).max(Long::compare).orElse(null));
            m.put("maxLongestGapMillis", resumed.stream().map(Resumption::longestGapMillis).max(Long::compare)
                    .orElse(null));
            Long goal = GOAL_MILLIS.get(kind);
            if (goal != null) {
                List<Resumption> judged = rs.stream().filter(Resumption::decidingWhenBegan).toList();
                m.put("goalMillis", goal);
                m.put("withinGoal", judged.isEmpty() ? null : judged.stream().allMatch(r -> r.resumeMillis() == null
                        ? r.afterTraffic() : r.judgedMillis(kind) <= goal));
            }
            json.put(kind.key(), m);
        });
        return json;
    }
}
