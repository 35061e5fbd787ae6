package dev.nona.it;

import java.util.Collection;
import java.util.List;

/**
 * The stall in decision writes around a kill: the longest pause between consecutive writes from the last one
 * before the kill on. Tasks of the job's attempt before the kill may write for a while after it (a dead leading
 * JobManager's tasks until their TaskManager gives up on it; the tasks on a surviving TaskManager until they are
 * cancelled), so the time to resume is measured to the first write after that pause.
 *
 * @param lastBeforeMillis from the kill to the last write before the pause (0 if it was before the kill)
 * @param stallMillis the pause
 * @param resumedAfterMillis from the kill to the first write after the pause
 */
record DecisionGap(long lastBeforeMillis, long stallMillis, long resumedAfterMillis) {

    static DecisionGap after(Collection<Long> writeTimes, long killedAt) {
        List<Long> sorted = writeTimes.stream().sorted().toList();
        int start = 0;
        while (start + 1 < sorted.size() && sorted.get(start + 1) < killedAt) {
            start++;
        }
        long bestFrom = killedAt;
        long bestTo = killedAt;
        for (int i = start; i + 1 < sorted.size(); i++) {
            long from = Math.max(sorted.get(i), killedAt);
            long to = sorted.get(i + 1);
            if (to - from > bestTo - bestFrom) {
                bestFrom = from;
                bestTo = to;
            }
        }
        return new DecisionGap(bestFrom - killedAt, bestTo - bestFrom, bestTo - killedAt);
    }
}
