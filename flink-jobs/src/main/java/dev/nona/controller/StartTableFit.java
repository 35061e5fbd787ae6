package dev.nona.controller;

import dev.nona.controller.catalog.DagDigest;
import dev.nona.controller.cluster.TelemetryClock;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether the newest table of {@code placement-tables} may be a fresh start's first table (docs/controller.md,
 * "Start-up"). It may when all of these hold, checked in this order (the first that fails is the reason it is not
 * taken):
 * <ol>
 *   <li>it is this controller's ({@code tableId} is {@code controller.id}) and a solved table, not the fallback;</li>
 *   <li><b>the catalog</b>: it was solved for exactly the catalog's models, and for each the same DAG: the
 *       fingerprint the table recorded ({@link ControllerTable#dagDigests}, {@link DagDigest}) is the fingerprint of
 *       the catalog's DAG now (same tasks, ops, edges and bytes). A table that records none (written before they
 *       existed) cannot be checked and is not taken;</li>
 *   <li><b>the cluster</b>: at least one server is up at start (its latest report, made within
 *       {@code cluster.liveness-timeout} before the start, says up with a compute rate above 0, and no command in
 *       force drains it), and the servers up now and those the table was solved for
 *       ({@code cluster.upServers}) share at least half of each: servers that came or went while the controller
 *       was down leave the table usable (a table maps its parts onto whatever servers are live, and the control
 *       loop re-solves when the cluster changed), a cluster that is mostly new, or unknown, does not.</li>
 * </ol>
 * Pure; {@link Servers} gathers the servers up at start from the telemetry read then.
 */
final class StartTableFit {
    /** Models named at most in a reason. */
    static final int NAMED = 5;

    private StartTableFit() {}

    /**
     * Why {@code table} may not be the first table (null when it may).
     *
     * @param tableId   the key it was written under
     * @param catalog   the catalog's DAGs now, by model
     * @param serversUp the servers up at start, drained ones left out ({@link Servers#up})
     */
    static String misfit(ControllerTable table, String tableId, String controllerId, Map<String, CatalogDag> catalog,
            Set<String> serversUp) {
        String v = "the newest table (version " + table.version() + ")";
        if (!controllerId.equals(tableId)) {
            return "the newest table was solved for controller '" + tableId + "', not '" + controllerId + "'";
        }
        if (table.fallback()) {
            return v + " is a fallback table";
        }
        if (!new TreeSet<>(table.rates().keySet()).equals(new TreeSet<>(catalog.keySet()))) {
            return v + " was solved for models " + named(table.rates().keySet()) + ", the catalog holds "
                    + named(catalog.keySet());
        }
        if (table.dagDigests().isEmpty()) {
            return v + " records no DAG fingerprints (written by an older controller): its DAGs cannot be checked "
                    + "against the catalog";
        }
        List<String> changed = new ArrayList<>();
        for (Map.Entry<String, CatalogDag> e : catalog.entrySet()) {
            if (!DagDigest.of(e.getValue()).equals(table.dagDigests().get(e.getKey()))) {
                changed.add(e.getKey());
            }
        }
        if (!changed.isEmpty()) {
            return v + " was solved for other DAGs of " + named(changed) + " than the catalog holds now";
        }
        if (serversUp.isEmpty()) {
            return v + ": no server reported up within cluster.liveness-timeout before the start, so the cluster it "
                    + "was solved for cannot be checked";
        }
        Set<String> solvedFor = new TreeSet<>(table.cluster().upServers());
        long shared = solvedFor.stream().filter(serversUp::contains).count();
        if (2 * shared < solvedFor.size() || 2 * shared < serversUp.size()) {
            return v + " was solved for another cluster: " + shared + " of the " + solvedFor.size()
                    + " servers it was solved for are up now, of " + serversUp.size() + " up (at least half of each "
                    + "must be shared)";
        }
        return null;
    }

    /** {@code models} sorted, at most {@link #NAMED} of them named. */
    static String named(Collection<String> models) {
        List<String> sorted = new ArrayList<>(new TreeSet<>(models));
        if (sorted.size() <= NAMED) {
            return sorted.toString();
        }
        return sorted.subList(0, NAMED).toString().replace("]", ", ... and " + (sorted.size() - NAMED) + " more]");
    }

    /**
     * The servers up at start, from the telemetry read then: the latest report of each server (by its event time),
     * made (by report time, {@link TelemetryClock#reportTime}) within the liveness timeout before the start. Not
     * thread safe.
     */
    static final class Servers {
        private final Map<String, ServerTelemetry> latest = new HashMap<>();
        private final Map<String, Long> madeAt = new HashMap<>();

        /** A report that arrived (its record timestamp) at {@code arrivalMillis}. */
        void report(ServerTelemetry report, long arrivalMillis) {
            ServerTelemetry before = latest.get(report.serverId());
            if (before == null || report.eventTime() >= before.eventTime()) {
                latest.put(report.serverId(), report);
                madeAt.put(report.serverId(), TelemetryClock.reportTime(report.eventTime(), arrivalMillis));
            }
        }

        /** The servers up at {@code startMillis}, but {@code drained}. */
        Set<String> up(long startMillis, long livenessTimeoutMillis, Set<String> drained) {
            Set<String> up = new TreeSet<>();
            latest.forEach((id, r) -> {
                if (r.up() && r.opsPerSecond() > 0 && madeAt.get(id) >= startMillis - livenessTimeoutMillis
                        && !drained.contains(id)) {
                    up.add(id);
                }
            });
            return up;
        }
    }
}
