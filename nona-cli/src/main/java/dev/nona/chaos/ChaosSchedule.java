package dev.nona.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A seeded, randomised fault schedule over a run's traffic: a pure function of the seed, the traffic's length, the
 * fault kinds the run can inject and the number of servers, so that a seed replays exactly the same schedule.
 *
 * <p>The faults follow one another without overlapping: each starts at least its predecessor's gap
 * ({@link FaultKind}) after that one ended, so that what the invariants expect is defined (a server falling silent
 * while all telemetry is stalled, say, would be placed on by the documented stall rule). The first fault comes
 * {@link #LEAD_MILLIS} after the traffic starts, the last ends {@link #TAIL_MILLIS} before it stops. The first pass
 * draws every kind once, in a seeded order (the shortest traffic that always fits it is {@link #minTrafficMillis});
 * then kinds are drawn at random until the traffic is used up. At most a quarter of the servers fall silent for good.
 */
public record ChaosSchedule(long seed, long trafficMillis, List<ScheduledFault> faults) {
    static final long LEAD_MILLIS = 10_000;
    static final long TAIL_MILLIS = 10_000;
    private static final int MIN_BURST_PER_SECOND = 50;
    private static final int MAX_BURST_PER_SECOND = 200;

    public ChaosSchedule {
        faults = List.copyOf(faults);
    }

    /** The schedule of {@code seed} for {@code trafficMillis} of traffic, of the {@code kinds} a run can inject. */
    public static ChaosSchedule draw(long seed, long trafficMillis, Set<FaultKind> kinds, int servers) {
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("fault kinds must not be empty");
        }
        if (servers < 2) {
            throw new IllegalArgumentException("servers (" + servers + ") must be >= 2");
        }
        Random random = new Random(seed);
        List<FaultKind> firstPass = new ArrayList<>(EnumSet.copyOf(kinds));
        Collections.shuffle(firstPass, random);
        List<FaultKind> drawable = List.copyOf(EnumSet.copyOf(kinds));
        Set<String> lost = new HashSet<>();
        List<ScheduledFault> out = new ArrayList<>();
        long t = LEAD_MILLIS;
        for (int n = 0; ; n++) {
            FaultKind kind = n < firstPass.size() ? firstPass.get(n) : drawable.get(random.nextInt(drawable.size()));
            if (kind == FaultKind.SERVER_SILENT_FOR_GOOD && lost.size() >= servers / 4) {
                if (drawable.size() == 1) {
                    break;
                }
                continue;
            }
            long duration = between(random, kind.minMillis, kind.maxMillis);
            if (t + duration > trafficMillis - TAIL_MILLIS) {
                if (n < firstPass.size()) {
                    continue; // a shorter kind of the first pass may still fit
                }
                break;
            }
            String server = "";
            if (kind.targetsServer()) {
                List<String> candidates = new ArrayList<>();
                for (int s = 0; s < servers; s++) {
                    if (!lost.contains("s" + s)) {
                        candidates.add("s" + s);
                    }
                }
                server = candidates.get(random.nextInt(candidates.size()));
                if (kind == FaultKind.SERVER_SILENT_FOR_GOOD) {
                    lost.add(server);
                }
            }
            int perSecond = kind == FaultKind.MALFORMED_BURST
                    ? (int) between(random, MIN_BURST_PER_SECOND, MAX_BURST_PER_SECOND) : 0;
            out.add(new ScheduledFault(kind, t, duration, server, perSecond));
            t += duration + between(random, kind.minGapMillis, kind.maxGapMillis);
        }
        return new ChaosSchedule(seed, trafficMillis, out);
    }

    /** The shortest traffic whose schedule holds every one of {@code kinds} whatever the seed. */
    public static long minTrafficMillis(Set<FaultKind> kinds) {
        long t = LEAD_MILLIS + TAIL_MILLIS;
        for (FaultKind k : kinds) {
            t += k.maxMillis + k.maxGapMillis;
        }
        return t;
    }

    /** The kinds it holds. */
    public Set<FaultKind> kinds() {
        Set<FaultKind> out = EnumSet.noneOf(FaultKind.class);
        faults.forEach(f -> out.add(f.kind()));
        return out;
    }

    public List<Map<String, Object>> toJson() {
        return faults.stream().map(ScheduledFault::toJson).toList();
    }

    private static long between(Random random, long min, long max) {
        return min + (max > min ? random.nextLong(max - min + 1) : 0);
    }
}
