package dev.nona.twin;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.dag.ContractedNode;
import dev.nona.dag.DagAnalysis;
import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.ClusterView;
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
 * {@code ClusterView}); every original task then runs on its contracted task's server. Where the twin's classes bound
 * memory, the policy sees it ({@link MemoryView}) and keeps each part off the servers too small for it, as every
 * baseline of the simulator does ({@code MemoryFilter}). The twin's clock starts at the first arrival. Deterministic
 * for a seed.
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
        ClusterView view = new MemoryView(twin, options, names.stream().map(n -> models.get(n).nodeBytes()).toList());
        for (Arrival a : sorted) {
            Model m = models.get(a.model());
            if (m == null) {
                throw new IllegalArgumentException("arrival '" + a.requestId() + "' names model '" + a.model()
                        + "', not in the catalog");
            }
            twin.advanceTo(a.atMillis());
            int[] servers = new int[m.jobClass().tasks()];
            placer.place(names.indexOf(a.model()), m.jobClass(), view, servers);
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

    /**
     * A model as the replay needs it: the simulator's job class, each contracted task's original tasks, and each
     * contracted task's bytes (its original tasks' {@code sizeBytes}).
     */
    private record Model(SimJobClass jobClass, List<List<String>> originals, TwinModel twinModel, double[] nodeBytes) {
        static Model of(String name, CatalogDag dag) {
            DagAnalysis analysis = DagAnalysis.analyse(CatalogDags.toModelDag(name, dag));
            List<List<String>> originals = analysis.decomposition().nodes().stream()
                    .map(ContractedNode::originalTasks).toList();
            Map<String, Double> bytes = new TreeMap<>();
            dag.tasks().forEach(t -> bytes.put(t.id(), t.sizeBytes() == null ? 0.0 : t.sizeBytes()));
            double[] nodeBytes = new double[originals.size()];
            for (int i = 0; i < nodeBytes.length; i++) {
                for (String task : originals.get(i)) {
                    nodeBytes[i] += bytes.get(task);
                }
            }
            return new Model(ModelClasses.of(name, analysis, 1.0), originals, new TwinModel(name, dag), nodeBytes);
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

    /**
     * The twin as a baseline policy reads it, with its memory: a part (contracted tasks of one model on one server)
     * fits a server whose class's whole memory holds the part's bytes ({@code ServerClass.fits}; the twin refuses a
     * part only when it is larger than that, {@link TwinMemory#tooLarge}). The rest is the twin's own view.
     */
    private static final class MemoryView implements ClusterView {
        private final ClusterView twin;
        private final TwinOptions options;
        private final List<double[]> nodeBytes;
        private final boolean bounded;

        /** @param nodeBytes per model index the policy is given, each contracted task's bytes */
        MemoryView(ClusterView twin, TwinOptions options, List<double[]> nodeBytes) {
            this.twin = twin;
            this.options = options;
            this.nodeBytes = nodeBytes;
            this.bounded = options.classes().stream().anyMatch(c -> c.memoryBounded());
        }

        @Override
        public boolean memoryBounded() {
            return bounded;
        }

        @Override
        public double memoryBytes(int s) {
            return options.classes().get(options.classOf(s)).memoryBytes();
        }

        @Override
        public boolean fits(int s, int classIndex, int[] tasks, int count) {
            double sum = 0;
            double[] bytes = nodeBytes.get(classIndex);
            for (int i = 0; i < count; i++) {
                sum += bytes[tasks[i]];
            }
            return options.classes().get(options.classOf(s)).fits(sum);
        }

        @Override
        public double now() {
            return twin.now();
        }

        @Override
        public int servers() {
            return twin.servers();
        }

        @Override
        public int queueLength(int s) {
            return twin.queueLength(s);
        }

        @Override
        public double queuedWorkSeconds(int s) {
            return twin.queuedWorkSeconds(s);
        }

        @Override
        public double assignedWorkSeconds(int s) {
            return twin.assignedWorkSeconds(s);
        }

        @Override
        public int assignedJobs(int s) {
            return twin.assignedJobs(s);
        }

        @Override
        public int jobsInFlight() {
            return twin.jobsInFlight();
        }

        @Override
        public int linkQueueLength() {
            return twin.linkQueueLength();
        }
    }
}
