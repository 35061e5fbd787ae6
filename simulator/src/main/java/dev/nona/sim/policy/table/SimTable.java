package dev.nona.sim.policy.table;

import dev.nona.placement.PlacementTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A placement table in the simulator's terms: for every job class (by its index in the workload) and every
 * subgraph of its decomposition (in order), a distribution $\theta_t$ over choices (Nona's triplets). Classes
 * without subgraphs (single tasks, background jobs) have an empty list. A table solved by Nona's optimiser also
 * carries the controller's form of it ({@link ControllerForm}), which the controller policies place with.
 *
 * @param perClass            one list per job class
 * @param predictedJctSeconds the solver's predicted mean JCT per class, or NaN where it has none
 * @param controllerForm      the same table as the controller publishes it, or null (a table not from the optimiser)
 */
public record SimTable(List<List<SubgraphTable>> perClass, List<Double> predictedJctSeconds, ControllerForm controllerForm) {
    public SimTable {
        perClass = perClass.stream().map(List::copyOf).toList();
        predictedJctSeconds = List.copyOf(predictedJctSeconds);
        if (perClass.size() != predictedJctSeconds.size()) {
            throw new IllegalArgumentException("table has " + perClass.size() + " classes but " + predictedJctSeconds.size() + " predictions");
        }
        if (controllerForm != null && controllerForm.taskOf().size() != perClass.size()) {
            throw new IllegalArgumentException("table has " + perClass.size() + " classes but its controller form maps "
                    + controllerForm.taskOf().size());
        }
    }

    /** A table without the controller's form. */
    public SimTable(List<List<SubgraphTable>> perClass, List<Double> predictedJctSeconds) {
        this(perClass, predictedJctSeconds, null);
    }

    /**
     * The table as the controller publishes it (policy-model's {@link PlacementTable}, built from the optimiser's
     * solution by {@code PlacementTables.from}, as the controller builds it), and where the simulator's tasks are in
     * it.
     *
     * @param table  the controller's table (original task ids)
     * @param taskOf per job class, for each of its (contracted) tasks the index in the table model's task list of
     *               one original task it stands for, or -1 for a virtual node; null for a class the table does not
     *               place (background jobs)
     */
    public record ControllerForm(PlacementTable table, List<int[]> taskOf) {
        public ControllerForm {
            Objects.requireNonNull(table, "controller table");
            taskOf = Collections.unmodifiableList(new ArrayList<>(taskOf)); // null rows allowed: List.copyOf rejects them
        }
    }

    public List<SubgraphTable> of(int classIndex) {
        return perClass.get(classIndex);
    }

    /** The largest probability, over every subgraph of every class, of a triplet that splits it; 0 when every job runs whole. */
    public double maxSplitProbability() {
        double max = 0;
        for (List<SubgraphTable> subgraphs : perClass) {
            for (SubgraphTable st : subgraphs) {
                double split = 0;
                for (int i = 0; i < st.choices().size(); i++) {
                    if (!st.choices().get(i).isWhole()) {
                        split += st.probability(i);
                    }
                }
                max = Math.max(max, split);
            }
        }
        return max;
    }
}
