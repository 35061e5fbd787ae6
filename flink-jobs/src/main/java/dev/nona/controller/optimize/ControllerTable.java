package dev.nona.controller.optimize;

import dev.nona.controller.cluster.ClusterSnapshot;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A published, versioned placement table with the inputs it was solved for. Lives in the placement operator's
 * broadcast state and in the control loop's state, and is written to {@code placement-tables}.
 *
 * @param version             monotonically increasing, from 1; decisions name it
 * @param fallback            true for the safe fallback table: no distribution, every request runs on one server
 * @param createdAt           when it was published, epoch ms
 * @param cause               why it was solved (initial, rate drift, cluster change, infeasible load)
 * @param rates               requests/s per model it was solved for (copied)
 * @param cluster             the cluster it was solved for
 * @param objective           the cost model's $\sum_j \beta_j \tau_j$ at {@code rates}; NaN for the fallback table
 * @param linkLoad            predicted link load $\rho$ at {@code rates}; NaN for the fallback table
 * @param predictedJctSeconds predicted $\tau_j$ per model (copied)
 * @param tableJson           the solved table (policy-model's placement table as JSON); {@code null} when fallback
 * @param replacedPredictedMeanJctSeconds the cost model's mean JCT, at this table's {@code rates}, of the table this
 *                            one replaced ($\sum_j \beta_j \tau_j / \sum_j \beta_j$ with the old table's
 *                            $\tau_j$); NaN (or 0 in records written before it existed) when unknown. The rollback
 *                            rule compares this table's observed JCT with it.
 * @param dagDigests          per model, the fingerprint of the catalog DAG it was solved for
 *                            ({@link dev.nona.controller.catalog.DagDigest}; copied): a fresh start takes the table
 *                            only while the catalog still holds these DAGs. Empty in tables written before it existed.
 */
public record ControllerTable(long version, boolean fallback, long createdAt, String cause, Map<String, Double> rates,
        ClusterSnapshot cluster, double objective, double linkLoad, Map<String, Double> predictedJctSeconds,
        String tableJson, double replacedPredictedMeanJctSeconds, Map<String, String> dagDigests) {
    public ControllerTable {
        if (version < 1) {
            throw new IllegalArgumentException("table version (" + version + ") must be >= 1");
        }
        rates = new TreeMap<>(rates);
        predictedJctSeconds = new TreeMap<>(predictedJctSeconds);
        dagDigests = dagDigests == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(dagDigests));
        if (!fallback && tableJson == null) {
            throw new IllegalArgumentException("BUG: a solved table (version " + version + ") needs its tableJson");
        }
    }

    /** A table that records no DAG fingerprints. */
    public ControllerTable(long version, boolean fallback, long createdAt, String cause, Map<String, Double> rates,
            ClusterSnapshot cluster, double objective, double linkLoad, Map<String, Double> predictedJctSeconds,
            String tableJson, double replacedPredictedMeanJctSeconds) {
        this(version, fallback, createdAt, cause, rates, cluster, objective, linkLoad, predictedJctSeconds, tableJson,
                replacedPredictedMeanJctSeconds, Map.of());
    }

    /** A table without a prediction for the table it replaced. */
    public ControllerTable(long version, boolean fallback, long createdAt, String cause, Map<String, Double> rates,
            ClusterSnapshot cluster, double objective, double linkLoad, Map<String, Double> predictedJctSeconds,
            String tableJson) {
        this(version, fallback, createdAt, cause, rates, cluster, objective, linkLoad, predictedJctSeconds, tableJson,
                Double.NaN);
    }

    /** This table again, as version {@code newVersion}, published at {@code now} for {@code newCause}. */
    public ControllerTable republished(long newVersion, long now, String newCause) {
        return new ControllerTable(newVersion, fallback, now, newCause, rates, cluster, objective, linkLoad,
                predictedJctSeconds, tableJson, Double.NaN, dagDigests);
    }
}
