package dev.nona.controller.loop;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a calibration window learned, taken in: each table's outcomes go to the rollback rule ({@link TableHistory}),
 * the servers' effective speeds replace the reported ones in the cluster view the next solve sees
 * ({@link ClusterWatch}). Speeds that moved by more than {@code drift.threshold} from the ones in use are one cause
 * of re-optimisation (at the next window end), naming the first three, and they let a table rolled back before be
 * judged anew. Logs as the control loop.
 */
final class CalibrationIntake {
    private static final Logger LOG = LoggerFactory.getLogger(ControlLoopFunction.class);
    /** Servers named in a calibration cause; the others are counted. */
    static final int NAMED = 3;

    private final TableHistory tables;
    private final ClusterWatch cluster;
    private final PendingCauses pending;

    CalibrationIntake(TableHistory tables, ClusterWatch cluster, PendingCauses pending) {
        this.tables = Objects.requireNonNull(tables, "table history");
        this.cluster = Objects.requireNonNull(cluster, "cluster watch");
        this.pending = Objects.requireNonNull(pending, "pending causes");
    }

    void take(Learned learned, LoopIo io) throws Exception {
        tables.tally(learned.versions(), io);
        List<String> moved = new ArrayList<>();
        for (Map.Entry<String, Double> e : learned.opsPerSecond().entrySet()) {
            String m = cluster.learn(e.getKey(), e.getValue(), io);
            if (m != null) {
                moved.add(m);
            }
        }
        if (!moved.isEmpty()) {
            String cause = "calibration: " + String.join(", ", moved.subList(0, Math.min(NAMED, moved.size())))
                    + (moved.size() > NAMED ? " and " + (moved.size() - NAMED) + " more" : "");
            LOG.info("Learned from outcomes: {}", cause);
            pending.markPending(cause);
            tables.forgetRolledBack(); // the cost model's inputs changed
        }
    }
}
