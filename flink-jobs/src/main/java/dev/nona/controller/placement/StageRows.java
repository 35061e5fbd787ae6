package dev.nona.controller.placement;

import dev.nona.placement.LiveServers;
import dev.nona.topics.record.StageAssignment;
import java.util.Arrays;
import java.util.List;

/**
 * A placer's stage assignments per server: every task of its model on one server (a <em>row</em>), immutable, so
 * shared by the decisions that use that server. Rows are kept in a direct-mapped cache of {@link #ROWS} by server
 * index: on a small cluster every server keeps its row and a decision allocates no assignment; on a large one a row
 * is mostly built afresh, next to the decision that uses it. (A row for every server, tasks x servers assignments,
 * was 940,000 objects, 22 MB, at 10,000 servers for resnet18 and alexnet: each decision's 71 or 23 assignments were
 * cache misses.) $O(\text{tasks})$ per row built, $O(1)$ per look-up. Not thread safe: one per placer.
 */
final class StageRows {
    /** Rows kept (a power of two). */
    static final int ROWS = 64;

    private final List<String> tasks;
    private final StageAssignment[][] rows = new StageAssignment[ROWS][];
    /** The server index of each row, -1: none. */
    private final int[] rowServer = new int[ROWS];
    private LiveServers cachedFor;

    StageRows(List<String> tasks) {
        this.tasks = List.copyOf(tasks);
        Arrays.fill(rowServer, -1);
    }

    /** Every task on server {@code s} of {@code servers}, in the tasks' order (do not modify). */
    StageAssignment[] row(LiveServers servers, int s) {
        if (cachedFor != servers) { // indices are the mapping's own
            Arrays.fill(rowServer, -1);
            cachedFor = servers;
        }
        int k = s & (ROWS - 1);
        if (rowServer[k] != s) {
            String server = servers.id(s);
            StageAssignment[] row = new StageAssignment[tasks.size()];
            for (int t = 0; t < row.length; t++) {
                row[t] = new StageAssignment(tasks.get(t), server);
            }
            rows[k] = row;
            rowServer[k] = s;
        }
        return rows[k];
    }
}
