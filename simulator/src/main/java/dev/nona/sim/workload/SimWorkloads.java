package dev.nona.sim.workload;

import dev.nona.dag.DagAnalysis;
import dev.nona.dag.EnumerationBound;
import dev.nona.dag.ModelDag;
import dev.nona.dag.TaskBytes;
import dev.nona.placement.Placeability;
import dev.nona.sim.JobKind;
import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.workload.Background;
import dev.nona.workload.DagSources;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.Workload;
import dev.nona.workload.WorkloadException;
import dev.nona.workload.WorkloadReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the simulator's workload from a workload file ({@link WorkloadReader}): one inference class per model
 * (its DAG loaded as the optimiser loads it, {@link DagSources}, at the contracted granularity, {@link ModelClasses}),
 * plus a background compute class and a background communication class when the file has them.
 */
public final class SimWorkloads {
    /** Name of the background compute class. */
    public static final String BACKGROUND_COMPUTE = "background-compute";
    /** Name of the background communication class. */
    public static final String BACKGROUND_COMM = "background-comm";

    private SimWorkloads() {
    }

    /**
     * A workload in both forms: the file's (for the optimiser) and the simulator's, plus each model's analysis.
     *
     * @param source   the workload as read
     * @param sim      the simulator's workload
     * @param analyses each model's DAG analysis, by model name
     */
    public record Loaded(Workload source, SimWorkload sim, Map<String, DagAnalysis> analyses) {
        public Loaded {
            analyses = Map.copyOf(analyses);
        }

        /**
         * Models that fit whole only on a few servers, and not all at once ({@code Cluster#wholeModelShortfall}): a
         * sentence for a warning, or null. Every policy then has parts refused or loaded again.
         */
        public String wholeModelShortfall() {
            List<SimJobClass> models = sim.classes().stream().filter(c -> c.kind() == JobKind.INFERENCE).toList();
            return source.cluster().wholeModelShortfall(models.stream().map(SimJobClass::name).toList(),
                    models.stream().mapToDouble(SimJobClass::totalBytes).toArray());
        }
    }

    public static Loaded read(Path file) {
        return from(WorkloadReader.read(file));
    }

    /**
     * The simulator's form of {@code w}. A model's DAG is analysed for the cluster's largest memory (a contracted
     * node no server holds is cut into pieces that fit, {@code dag.MemoryCut}).
     *
     * @throws WorkloadException naming the model and the task when a task needs more memory than every server has
     *                           ({@link Placeability}): no policy could run the model
     */
    public static Loaded from(Workload w) {
        Map<String, DagAnalysis> analyses = new LinkedHashMap<>();
        List<SimJobClass> classes = new ArrayList<>();
        for (int i = 0; i < w.models().size(); i++) {
            ModelSpec m = w.models().get(i);
            ModelDag dag = DagSources.load(m.name(), m.dag());
            double[] bytes = TaskBytes.perTask(dag, m.sizeBytes());
            int t = Placeability.unplaceableTask(bytes, w.cluster().classes());
            if (t >= 0) {
                throw new WorkloadException("models[" + i + "] '" + m.name() + "': task '" + dag.tasks().get(t).id()
                        + "' needs " + bytes[t] + " bytes, more than every server's memory (largest "
                        + w.cluster().largestMemoryBytes() + " bytes): no placement can run it");
            }
            DagAnalysis a = DagAnalysis.analyse(dag, EnumerationBound.defaults(), m.sizeBytes(),
                    w.cluster().largestMemoryBytes());
            analyses.put(m.name(), a);
            classes.add(ModelClasses.of(m.name(), a, m.ratePerSecond(), m.sizeBytes()));
        }
        Background bg = w.background();
        if (bg.compute().ratePerSecond() > 0) {
            classes.add(SimJobClass.backgroundCompute(BACKGROUND_COMPUTE, bg.compute().ratePerSecond(), bg.compute().ops()));
        }
        if (bg.comm().ratePerSecond() > 0) {
            classes.add(SimJobClass.backgroundComm(BACKGROUND_COMM, bg.comm().ratePerSecond(), bg.comm().bits()));
        }
        SimCluster cluster = SimCluster.of(w.cluster());
        return new Loaded(w, new SimWorkload(cluster, classes), analyses);
    }
}
