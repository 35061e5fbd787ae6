package dev.nona.placement;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.optimize.CostModel;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A versioned placement table: the optimiser's $\theta_t$ for every subgraph of every model, with parts named by
 * <em>original</em> task ids, the inputs it was solved for, and what it predicts. Immutable and JSON-serialisable
 * ({@link #toJson()}, {@link #fromJson(String)}). Build one with {@link PlacementTables#from}; sample from it with
 * {@link PlacementSampler}.
 *
 * @param version           increases with every table a controller publishes
 * @param createdAtMillis   when it was solved (epoch millis, supplied by the caller)
 * @param solvedFor         the inputs it was solved for
 * @param feasible          whether the load was feasible; an infeasible table holds the least-traffic placement
 * @param diagnostic        why it is infeasible (empty otherwise)
 * @param objective         $\sum_j \beta_j \tau_j$ (+ background term), "Infinity" in JSON when infeasible
 * @param linkLoad          $\rho$
 * @param linkWaitSeconds   $\phi$
 * @param solveMillis       how long the optimiser took
 * @param models            one entry per model, in workload order
 * @param idleGate          the placement rule's idle gate $\kappa$ the predictions assume (0, and absent in JSON
 *                          from older writers: none): with a gate, a part whose best server has work queued goes to
 *                          the fastest idle server holding its model when it computes there within $\kappa$ times
 *                          the best server's cost ({@link LiveServers#idleGate})
 */
public record PlacementTable(long version, long createdAtMillis, SolvedFor solvedFor, boolean feasible, String diagnostic,
                             double objective, double linkLoad, double linkWaitSeconds, double solveMillis,
                             List<ModelPlacement> models, double idleGate) {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public PlacementTable {
        if (version < 0) {
            throw new IllegalArgumentException("table version (" + version + ") must be >= 0");
        }
        Objects.requireNonNull(solvedFor, "solvedFor");
        if (!(idleGate == 0 || idleGate >= 1 && Double.isFinite(idleGate))) {
            throw new IllegalArgumentException("table: idleGate (" + idleGate + ") must be 0 or finite and >= 1");
        }
        diagnostic = diagnostic == null ? "" : diagnostic;
        models = List.copyOf(models);
        var names = new HashSet<String>();
        for (ModelPlacement m : models) {
            if (!names.add(m.name())) {
                throw new IllegalArgumentException("table: duplicate model '" + m.name() + "'");
            }
        }
    }

    /** The entry of a model, or null. */
    public ModelPlacement model(String name) {
        for (ModelPlacement m : models) {
            if (m.name().equals(name)) {
                return m;
            }
        }
        return null;
    }

    /** This table with another version number. */
    public PlacementTable withVersion(long v) {
        return new PlacementTable(v, createdAtMillis, solvedFor, feasible, diagnostic, objective, linkLoad, linkWaitSeconds,
                solveMillis, models, idleGate);
    }

    /** JSON text of this table (non-finite numbers as the strings "Infinity"/"NaN"). */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: placement table not serialisable", e);
        }
    }

    /** Reads a table written by {@link #toJson()}; unknown fields (from newer writers) are ignored. */
    public static PlacementTable fromJson(String json) {
        try {
            return JSON.readValue(json, PlacementTable.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("placement table JSON is invalid: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The inputs a table was solved for.
     *
     * @param cluster        servers, compute rate, link capacity
     * @param ratesPerSecond $\beta_j$ per model name
     * @param background     background load
     * @param costModel      the formulation
     */
    public record SolvedFor(Cluster cluster, Map<String, Double> ratesPerSecond, Background background, CostModel costModel) {
        public SolvedFor {
            Objects.requireNonNull(cluster, "cluster");
            ratesPerSecond = Collections.unmodifiableMap(new LinkedHashMap<>(ratesPerSecond));
            background = background == null ? Background.NONE : background;
            Objects.requireNonNull(costModel, "costModel");
        }
    }

    /**
     * One model's placement.
     *
     * @param name                the model
     * @param ratePerSecond       $\beta_j$ it was solved for
     * @param predictedJctSeconds $\tau_j$
     * @param tasks               every original task id; {@link PlacementSampler} writes servers in this order
     * @param sourceTasks         original tasks of the source $t_0$ (empty if it is virtual)
     * @param subgraphs           in chain order
     */
    public record ModelPlacement(String name, double ratePerSecond, double predictedJctSeconds, List<String> tasks,
                                 List<String> sourceTasks, List<SubgraphPlacement> subgraphs) {
        public ModelPlacement {
            Objects.requireNonNull(name, "model name");
            tasks = List.copyOf(tasks);
            sourceTasks = List.copyOf(sourceTasks);
            subgraphs = List.copyOf(subgraphs);
        }
    }

    /**
     * $\theta_t$ of one subgraph.
     *
     * @param root      the root (contracted node id)
     * @param sink      the sink (contracted node id)
     * @param sinkTasks original tasks of the sink (empty if it is virtual)
     * @param choices   triplets with positive probability, summing to 1
     */
    public record SubgraphPlacement(String root, String sink, List<String> sinkTasks, List<Choice> choices) {
        public SubgraphPlacement {
            sinkTasks = List.copyOf(sinkTasks);
            choices = List.copyOf(choices);
            if (choices.isEmpty()) {
                throw new IllegalArgumentException("subgraph " + root + "->" + sink + ": no choices");
            }
            double sum = choices.stream().mapToDouble(Choice::probability).sum();
            if (!(Math.abs(sum - 1) <= 1e-6)) {
                throw new IllegalArgumentException("subgraph " + root + "->" + sink + ": probabilities sum to " + sum + ", not 1");
            }
        }
    }

    /**
     * One triplet $(\pi, \pi_k, \pi_l)$ with its probability.
     *
     * @param parts       the parts, as original task ids; distinct parts go to distinct servers
     * @param rootPart    $k$, index into parts (0 when there are no parts)
     * @param sinkPart    $l$, index into parts (0 when there are no parts)
     * @param probability $\theta_t$ of this triplet, in (0, 1]
     */
    public record Choice(List<List<String>> parts, int rootPart, int sinkPart, double probability) {
        public Choice {
            parts = parts.stream().map(List::copyOf).toList();
            int n = Math.max(1, parts.size());
            if (rootPart < 0 || rootPart >= n || sinkPart < 0 || sinkPart >= n) {
                throw new IllegalArgumentException("choice: rootPart (" + rootPart + ") and sinkPart (" + sinkPart
                        + ") must index into " + parts.size() + " parts");
            }
            if (!(probability > 0 && probability <= 1 + 1e-9)) {
                throw new IllegalArgumentException("choice: probability (" + probability + ") must be in (0, 1]");
            }
        }
    }
}
