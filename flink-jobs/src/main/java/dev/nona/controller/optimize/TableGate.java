package dev.nona.controller.optimize;

import dev.nona.controller.catalog.DagDigest;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The safe hot-swap: decides what a finished re-optimisation publishes. A solved table replaces the current one
 * only when the cost model predicts it does better at the new rates ($\sum_j \beta_j \tau_j$ strictly lower), or
 * when the current one is missing, is the fallback, does not cover the same models, or is infeasible at the new
 * rates ($\rho \ge 1$). When no table keeps $\rho < 1$, the load is infeasible: an {@code INFEASIBLE_LOAD} event and
 * the fallback table (no distribution: each request on one server), so decisions continue. Every verdict carries
 * events that record both predictions. Pure and deterministic.
 *
 * <p>A table is also a prediction ($\tau_j$ per model, which the decisions carry and calibration compares with what
 * executors observe). When the cluster the current table was solved for is no longer the cluster as the controller
 * knows it (servers up or down, or $\nu$ or $\mu$ moved past the cluster threshold, e.g. speeds learned from
 * outcomes), a candidate that is no worse (usually the same choices) is published too, so that the predictions in
 * force are for the cluster as it is: otherwise a cluster learned to be slower keeps a table whose $\tau_j$ assume
 * the reported speed, and every observed JCT looks twice the prediction. The event says so
 * ({@code "refreshed": true}).
 */
public final class TableGate {
    private TableGate() {}

    /** The verdict: the table to publish ({@code null} to keep the current one) and the events to emit. */
    public record Verdict(ControllerTable publish, List<ControllerEvent> events) {
        public Verdict {
            events = List.copyOf(events);
        }
    }

    /** {@link #decide(ControllerTable, SolveInput, SolveResult, long, double)} that never refreshes a prediction. */
    public static Verdict decide(ControllerTable current, SolveInput input, SolveResult result, long now) {
        return decide(current, input, result, now, Double.POSITIVE_INFINITY);
    }

    /**
     * @param clusterThreshold relative change of $\nu$ or $\mu$ since the current table's solve beyond which its
     *                         predictions are stale ({@link dev.nona.controller.cluster.ClusterSnapshot#changeFrom})
     */
    public static Verdict decide(ControllerTable current, SolveInput input, SolveResult result, long now,
            double clusterThreshold) {
        return decide(current, current == null ? 0 : current.version(), input, result, now, clusterThreshold);
    }

    /**
     * @param lastVersion the version of the last table published ({@code current}'s; before the first, the newest
     *                    a fresh start found on {@code placement-tables}, or 0): a published table is the next one
     */
    public static Verdict decide(ControllerTable current, long lastVersion, SolveInput input, SolveResult result,
            long now, double clusterThreshold) {
        List<ControllerEvent> events = new ArrayList<>();
        long nextVersion = lastVersion + 1;
        Map<String, Object> finished = details(input, result, current);
        if (result.error() != null) {
            finished.put("error", result.error());
            events.add(ControllerEvent.of(ControllerEventType.REOPTIMIZATION_FINISHED, now, finished));
            return new Verdict(null, events);
        }
        events.add(ControllerEvent.of(ControllerEventType.REOPTIMIZATION_FINISHED, now, finished));
        if (!result.feasible()) {
            events.add(ControllerEvent.of(ControllerEventType.INFEASIBLE_LOAD, now, finished));
            if (current != null && current.fallback()) {
                return new Verdict(null, events);
            }
            ControllerTable fallback = new ControllerTable(nextVersion, true, now, "infeasible load: " + input.cause(),
                    input.rates(), input.cluster(), Double.NaN, Double.NaN, Map.of(), null, Double.NaN,
                    DagDigest.of(input.dags()));
            Map<String, Object> fb = new LinkedHashMap<>(finished);
            fb.put("tableVersion", nextVersion);
            events.add(ControllerEvent.of(ControllerEventType.FALLBACK, now, fb));
            return new Verdict(fallback, events);
        }
        boolean currentUsable = current != null && !current.fallback() && result.currentFeasible()
                && Double.isFinite(result.currentObjective());
        String stale = currentUsable && current.cluster() != null
                ? input.cluster().changeFrom(current.cluster(), clusterThreshold) : null;
        if (currentUsable && !(result.objective() < result.currentObjective())
                && !(stale != null && result.objective() <= result.currentObjective())) {
            events.add(ControllerEvent.of(ControllerEventType.TABLE_REJECTED, now, finished));
            return new Verdict(null, events);
        }
        double totalRate = input.rates().values().stream().mapToDouble(Double::doubleValue).sum();
        double replacedMean = currentUsable && totalRate > 0 ? result.currentObjective() / totalRate : Double.NaN;
        ControllerTable table = new ControllerTable(nextVersion, false, now, input.cause(), input.rates(),
                input.cluster(), result.objective(), result.linkLoad(), result.predictedJctSeconds(), result.tableJson(),
                replacedMean, DagDigest.of(input.dags()));
        Map<String, Object> published = new LinkedHashMap<>(finished);
        published.put("tableVersion", nextVersion);
        if (currentUsable && !(result.objective() < result.currentObjective())) {
            published.put("refreshed", true);
            published.put("refreshReason", "no better than the current table, whose predictions were made for "
                    + "another cluster (" + stale + ")");
        }
        events.add(ControllerEvent.of(ControllerEventType.TABLE_PUBLISHED, now, published));
        return new Verdict(table, events);
    }

    /**
     * {@code verdict} with its table not published: the {@code TABLE_PUBLISHED} event becomes a
     * {@code TABLE_REJECTED} with {@code reason}.
     */
    public static Verdict refuse(Verdict verdict, long now, String reason) {
        List<ControllerEvent> events = new ArrayList<>();
        for (ControllerEvent e : verdict.events()) {
            if (e.type() == ControllerEventType.TABLE_PUBLISHED) {
                Map<String, Object> d = new LinkedHashMap<>(e.details());
                d.remove("tableVersion");
                d.put("reason", reason);
                events.add(ControllerEvent.of(ControllerEventType.TABLE_REJECTED, now, d));
            } else {
                events.add(e);
            }
        }
        return new Verdict(null, events);
    }

    private static Map<String, Object> details(SolveInput input, SolveResult result, ControllerTable current) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("cause", input.cause());
        d.put("feasible", result.feasible());
        putFinite(d, "candidateObjective", result.objective());
        putFinite(d, "currentObjective", result.currentObjective());
        d.put("currentFeasible", result.currentFeasible());
        putFinite(d, "linkLoad", result.linkLoad());
        putFinite(d, "linkWaitSeconds", result.linkWaitSeconds());
        putFinite(d, "solveMillis", result.solveMillis());
        d.put("iterations", result.iterations());
        d.put("currentTableVersion", current == null ? 0L : current.version());
        d.put("models", input.dags().size());
        d.put("servers", input.cluster().upServers().size());
        if (!result.diagnostic().isEmpty()) {
            d.put("diagnostic", result.diagnostic());
        }
        return d;
    }

    private static void putFinite(Map<String, Object> d, String key, double value) {
        if (Double.isFinite(value)) {
            d.put(key, value);
        }
    }
}
