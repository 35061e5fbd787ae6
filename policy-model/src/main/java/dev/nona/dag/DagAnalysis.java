package dev.nona.dag;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the optimiser needs from one model DAG: Nona's contraction (Technique 1), the decomposition
 * at bottleneck nodes, and each subgraph's triplets $\Omega_t$ (Technique 2), under one enumeration bound.
 *
 * <p>Based on: Nona (CloudNet 2024), Sections III-C and III-D.
 *
 * @param dag           the original model DAG
 * @param contracted    its contraction
 * @param decomposition the contracted DAG cut at its roots (with virtual source/sink where needed)
 * @param triplets      one entry per subgraph of {@code decomposition}, in the same order
 * @param bound         the bound the triplets were enumerated under
 */
public record DagAnalysis(ModelDag dag, ContractedDag contracted, Decomposition decomposition,
        List<SubgraphTriplets> triplets, EnumerationBound bound) {
    public DagAnalysis {
        Objects.requireNonNull(dag, "dag");
        Objects.requireNonNull(contracted, "contracted");
        Objects.requireNonNull(decomposition, "decomposition");
        Objects.requireNonNull(bound, "bound");
        triplets = List.copyOf(triplets);
    }

    /** Validates, contracts, decomposes and enumerates {@code dag}. Throws {@link DagValidationException} on bad input. */
    public static DagAnalysis analyse(ModelDag dag, EnumerationBound bound) {
        Objects.requireNonNull(dag, "dag");
        Objects.requireNonNull(bound, "bound");
        return of(dag, DagContractor.contract(dag), Set.of(), bound);
    }

    /**
     * As {@link #analyse(ModelDag, EnumerationBound)} on a cluster whose largest server memory is
     * {@code largestMemoryBytes}: a contracted node larger than that is cut into pieces that fit ({@link MemoryCut}),
     * so that a chain model no server holds whole can still run split. With every node within the memory (always
     * when it is unbounded) the analysis is {@link #analyse(ModelDag, EnumerationBound)}'s.
     *
     * @param modelSizeBytes     the model's {@code sizeBytes} for {@link TaskBytes#byTaskId} (0: not given)
     * @param largestMemoryBytes the largest server memory, $> 0$ ({@code +Infinity}: unbounded)
     */
    public static DagAnalysis analyse(ModelDag dag, EnumerationBound bound, double modelSizeBytes,
            double largestMemoryBytes) {
        Objects.requireNonNull(dag, "dag");
        Objects.requireNonNull(bound, "bound");
        ContractedDag contracted = DagContractor.contract(dag);
        if (largestMemoryBytes == Double.POSITIVE_INFINITY) {
            return of(dag, contracted, Set.of(), bound);
        }
        MemoryCut.Result cut = MemoryCut.cut(dag, contracted, TaskBytes.byTaskId(dag, modelSizeBytes), largestMemoryBytes);
        return of(dag, cut.contracted(), cut.notRoots(), bound);
    }

    private static DagAnalysis of(ModelDag dag, ContractedDag contracted, Set<String> notRoots, EnumerationBound bound) {
        Decomposition decomposition = Decomposer.decompose(contracted, notRoots);
        List<SubgraphTriplets> triplets = decomposition.subgraphs().stream()
                .map(s -> TripletEnumerator.enumerate(s, bound))
                .toList();
        return new DagAnalysis(dag, contracted, decomposition, triplets, bound);
    }

    /** {@link #analyse(ModelDag, EnumerationBound)} with {@link EnumerationBound#defaults()}. */
    public static DagAnalysis analyse(ModelDag dag) {
        return analyse(dag, EnumerationBound.defaults());
    }

    /** The roots $\mathcal{R}^j$ in topological order. */
    public List<String> roots() {
        return decomposition.roots();
    }

    /** The number of enumerated triplets over all subgraphs: the optimiser's variables for this model. */
    public long variables() {
        return triplets.stream().mapToLong(t -> t.triplets().size()).sum();
    }

    /** True iff a bound applied to at least one subgraph. */
    public boolean capped() {
        return triplets.stream().anyMatch(SubgraphTriplets::capped);
    }

    /** Summary counts (the {@code nona dag stats} output). */
    public DagStats stats() {
        return DagStats.of(this);
    }
}
