package dev.nona.twin;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.dag.ContractedNode;
import dev.nona.dag.DagAnalysis;
import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.PolicyContext;
import dev.nona.sim.policy.PolicyRegistry;
import dev.nona.sim.workload.ModelClasses;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.StageAssignment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Replays recorded arrivals through a fresh executor twin in virtual time, placed by one of the simulator's
 * baseline policies instead of the controller: the comparison the demo's {@code --baseline} reports. Each
 * model's DAG is contracted and decomposed as the simulator does ({@link ModelClasses}); the policy places the
 * contracted tasks, reading the twin's live state where it is a live-state policy ({@link TwinCluster} is a
 * {@code ClusterView}); every original task then runs on its contracted task's server. The twin's clock starts at
 * the first arrival. Deterministic for a seed.
 */
public final class BaselineReplay {
    /** The policies a replay can use: those that need no placement table. */
    public static final Set<String> POLICIES = Set.of("random", "spark-fair", "local", "jsq", "p2c");

    /** A request as it arrived at the twin. */
    public record Arrival(String requestId, String model, long atMillis) {}

    private BaselineReplay() {
    }

    /**
     * @return the outcome of every arrival (in the order the requests ended)
     * @throws IllegalArgumentException if {@code policy} is not one of {@link #POLICIES}, or an arrival names a
     *                                  model not in {@code catalog}
     */
    public static List<PlacementOutcome> run(String policy, TwinOptions options, Map<String, CatalogDag> catalog,
            List<Arrival> arrivals, long seed) {
        if (!POLICIES.contains(policy)) {
            throw new IllegalArgumentException("baseline policy '" + policy + "' is not one of " + new TreeSet<>(POLICIES));
        }
        Map<String, Model> models = new TreeMap<>();
        catalog.forEach((name, dag) -> models.put(name, Model.of(name, dag)));
        List<SimJobClass> classes = models.values().stream().map(Model::jobClass).toList();
        SimWorkload workload = new SimWorkload(new SimCluster(options.servers(), options.opsPerSecond(),
                options.linkBitsPerSecond()), classes);
        Policy placer = PolicyRegistry.create(policy, PolicyContext.basic(workload, seed));
        List<Arrival> sorted = arrivals.stream().sorted(Comparator.comparingLong(Arrival::atMillis)).toList();
        if (sorted.isEmpty()) {
            return List.of();
        }
        TwinCluster twin = new TwinCluster(options, sorted.get(0).atMillis());
        List<String> names = List.copyOf(models.keySet());
        for (Arrival a : sorted) {
            Model m = models.get(a.model());
            if (m == null) {
                throw new IllegalArgumentException("arrival '" + a.requestId() + "' names model '" + a.model()
                        + "', not in the catalog");
            }
            twin.advanceTo(a.atMillis());
            int[] servers = new int[m.jobClass().tasks()];
            placer.place(names.indexOf(a.model()), m.jobClass(), twin, servers);
            PlacementDecision d = PlacementDecision.of(a.requestId(), a.model(), "baseline", 0, false,
                    m.stages(servers), 0, a.atMillis());
            TwinCluster.Rejection bad = twin.submit(d, m.twinModel(), a.atMillis());
            if (bad != null) {
                throw new IllegalStateException("BUG: the baseline's decision was rejected: " + bad);
            }
        }
        twin.advanceTo(sorted.get(sorted.size() - 1).atMillis() + Math.round(options.timeoutSeconds() * 1000) + 1);
        return twin.drainOutcomes();
    }

    /** A model as the replay needs it: the simulator's job class and each contracted task's original tasks. */
    private record Model(SimJobClass jobClass, List<List<String>> originals, TwinModel twinModel) {
        static Model of(String name, CatalogDag dag) {
            DagAnalysis analysis = DagAnalysis.analyse(CatalogDags.toModelDag(name, dag));
            List<List<String>> originals = analysis.decomposition().nodes().stream()
                    .map(ContractedNode::originalTasks).toList();
            return new Model(ModelClasses.of(name, analysis, 1.0), originals, new TwinModel(name, dag));
        }

        List<StageAssignment> stages(int[] servers) {
            List<StageAssignment> out = new ArrayList<>();
            for (int i = 0; i < originals.size(); i++) {
                for (String task : originals.get(i)) {
                    out.add(new StageAssignment(task, TwinOptions.serverId(servers[i])));
                }
            }
            return out;
        }
    }
}
