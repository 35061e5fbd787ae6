package dev.nona.chaos;

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
 * fault's beginning $B$ and $a < E + $ {@link #GAP_WINDOW_MILLIS} (the gap around $B$ counts from the last decision
 * at or before $B$, or from $B$ when there was none since the traffic started): how long decisions were absent
 * during the fault and just after it. Both are null when no decision was written after $E$.
 *
 * @param endMillis        $E$, from the start of the traffic
 * @param resumeMillis     $d_E - E$, or null: no decision after $E$
 * @param longestGapMillis the longest gap, or null: no decision after $E$
 */
record Resumption(long endMillis, Long resumeMillis, Long longestGapMillis) {
    /** How far after the end a gap may begin and still be the fault's: the TaskManager goal's 10 s. */
    static final long GAP_WINDOW_MILLIS = 10_000;
    /** The goals of the project's requirement: decisions resume within 2 s after the broker accepts writes again,
     *  within 10 s after a TaskManager kill on the multi-process cluster. */
    static final Map<FaultKind, Long> GOAL_MILLIS = Map.of(FaultKind.BROKER_KILL, 2_000L,
            FaultKind.TASKMANAGER_KILL, 10_000L);

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
     * The resumption after {@code f}, whose times are from the start of the traffic at {@code trafficStartEpochMillis}
     * (the wall clock, as the write times).
     */
    static Resumption of(FaultRunner.Injected f, long trafficStartEpochMillis, DecisionTimes times) {
        long endRel = endMillis(f);
        long began = trafficStartEpochMillis + f.beganMillis();
        long end = trafficStartEpochMillis + endRel;
        long first = times.firstAfter(end);
        if (first < 0) {
            return new Resumption(endRel, null, null);
        }
        long a = times.lastAtOrBefore(began);
        if (a < 0) {
            a = began;
        }
        long longest = 0;
        while (a < end + GAP_WINDOW_MILLIS) {
            long b = times.firstAfter(a);
            if (b < 0) {
                break;
            }
            longest = Math.max(longest, b - a);
            a = b;
        }
        return new Resumption(endRel, first - end, longest);
    }

    /** The fields added to a fault's JSON ({@link FaultRunner.Injected#toJson()}). */
    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resumeFromSeconds", endMillis / 1000.0);
        m.put("resumeMillis", resumeMillis);
        m.put("longestGapMillis", longestGapMillis);
        return m;
    }

    /**
     * Per fault kind, in the order of the kinds: {@code faults}, {@code resumed} (how many had a decision after their
     * end), {@code maxResumeMillis} and {@code maxLongestGapMillis} (over those; null when none resumed), and for a
     * kind with a goal ({@link #GOAL_MILLIS}) {@code goalMillis} and {@code withinGoal} (every one resumed, within
     * it). {@code resumptions} is parallel to {@code injected}.
     */
    static Map<String, Map<String, Object>> byKind(List<FaultRunner.Injected> injected,
            List<Resumption> resumptions) {
        if (injected.size() != resumptions.size()) {
            throw new IllegalArgumentException(injected.size() + " faults but " + resumptions.size()
                    + " resumptions");
        }
        Map<FaultKind, Map<String, Object>> out = new EnumMap<>(FaultKind.class);
        for (int i = 0; i < injected.size(); i++) {
            Resumption r = resumptions.get(i);
            Map<String, Object> k = out.computeIfAbsent(injected.get(i).fault().kind(), kind -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("faults", 0);
                m.put("resumed", 0);
                m.put("maxResumeMillis", null);
                m.put("maxLongestGapMillis", null);
                return m;
            });
            k.merge("faults", 1, (x, y) -> (Integer) x + (Integer) y);
            if (r.resumeMillis() != null) {
                k.merge("resumed", 1, (x, y) -> (Integer) x + (Integer) y);
                k.put("maxResumeMillis", max((Long) k.get("maxResumeMillis"), r.resumeMillis()));
                k.put("maxLongestGapMillis", max((Long) k.get("maxLongestGapMillis"), r.longestGapMillis()));
            }
        }
        Map<String, Map<String, Object>> json = new LinkedHashMap<>();
        out.forEach((kind, m) -> {
            Long goal = GOAL_MILLIS.get(kind);
            if (goal != null) {
                m.put("goalMillis", goal);
                m.put("withinGoal", m.get("resumed").equals(m.get("faults")) && (Long) m.get("maxResumeMillis") <= goal);
            }
            json.put(kind.key(), m);
        });
        return json;
    }

    private static Long max(Long a, long b) {
        return a == null ? b : Math.max(a, b);
    }
}
