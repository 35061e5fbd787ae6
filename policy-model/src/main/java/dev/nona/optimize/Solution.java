package dev.nona.optimize;

import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import java.util.List;
import java.util.Objects;

/**
 * What the optimiser found, with diagnostics. When no $\theta$ keeps the link stable ($\rho < 1$) or the servers
 * are overloaded, {@code feasible} is false, {@code objective}, {@code phi} and the JCTs are $+\infty$, $\theta$
 * puts all mass on the triplets that cut the fewest bits (the smallest reachable $\rho$, reported in {@code rho}),
 * and {@code diagnostic} says why.
 *
 * @param feasible          whether $\rho < 1$ and the servers are not overloaded
 * @param diagnostic        a one-line explanation (empty when feasible)
 * @param objective         $\sum_j \beta_j \tau_j$, plus the background's term when the cost model counts it (s/s)
 * @param rho               the link load $\rho$
 * @param phi               the link wait $\phi$ (s)
 * @param serverUtilisation the mean server utilisation $u$ (whether or not the cost model charges its wait)
 * @param serverWaitSeconds the entry wait $W$ charged where a task joins a server from outside (0 in the paper's formulation)
 * @param solveNanos        wall-clock solve time
 * @param iterations        number of linear programs solved
 * @param costModel         the formulation solved
 * @param jobs              per job class, in problem order (an unplaceable one too: JCT $+\infty$, no choices)
 * @param unplaceable       the models no server's memory can run even split into single tasks (or whose parts
 *                          cannot go to distinct servers that hold them), in problem order; the rest was solved
 *                          without them and the other fields describe that solve
 * @param unplaceableReasons one line per unplaceable model, same order
 * @param idleGate          the placement rule's idle gate $\kappa$ the predictions assume (0: none;
 *                          {@code queueing.LeastExpectedFinish})
 */
public record Solution(boolean feasible, String diagnostic, double objective, double rho, double phi,
                       double serverUtilisation, double serverWaitSeconds, long solveNanos, int iterations,
                       CostModel costModel, List<JobResult> jobs, List<String> unplaceable,
                       List<String> unplaceableReasons, double idleGate) {
    public Solution {
        Objects.requireNonNull(diagnostic, "diagnostic");
        jobs = List.copyOf(jobs);
        unplaceable = List.copyOf(unplaceable);
        unplaceableReasons = List.copyOf(unplaceableReasons);
        if (unplaceable.size() != unplaceableReasons.size()) {
            throw new IllegalArgumentException("BUG: " + unplaceable.size() + " unplaceable models but "
                    + unplaceableReasons.size() + " reasons");
        }
    }

    /** A solution in which every model is placeable. */
    public Solution(boolean feasible, String diagnostic, double objective, double rho, double phi,
                    double serverUtilisation, double serverWaitSeconds, long solveNanos, int iterations,
                    CostModel costModel, List<JobResult> jobs) {
        this(feasible, diagnostic, objective, rho, phi, serverUtilisation, serverWaitSeconds, solveNanos, iterations,
                costModel, jobs, List.of(), List.of(), 0);
    }

    /** This solution with {@code note} added to its {@link #diagnostic} (after a "; " when it has one already). */
    public Solution withDiagnostic(String note) {
        String d = diagnostic.isEmpty() ? note : diagnostic + "; " + note;
        return new Solution(feasible, d, objective, rho, phi, serverUtilisation, serverWaitSeconds, solveNanos, iterations,
                costModel, jobs, unplaceable, unplaceableReasons, idleGate);
    }

    /** Whether the model {@code name} could not be placed anywhere ({@link #unplaceable}). */
    public boolean isUnplaceable(String name) {
        return unplaceable.contains(name);
    }

    /** Solve time in milliseconds. */
    public double solveMillis() {
        return solveNanos / 1e6;
    }

    /** The result for one job class, by name; throws if absent. */
    public JobResult job(String name) {
        return jobs.stream().filter(j -> j.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no job class '" + name + "' in solution"));
    }

    /**
     * @param name                the job class
     * @param ratePerSecond       $\beta_j$
     * @param predictedJctSeconds $\tau_j$ (Eq. (XII)), $+\infty$ when infeasible
     * @param subgraphs           $\theta_t$ per subgraph, in chain order
     */
    public record JobResult(String name, double ratePerSecond, double predictedJctSeconds, List<SubgraphResult> subgraphs) {
        public JobResult {
            subgraphs = List.copyOf(subgraphs);
        }
    }

    /**
     * $\theta_t$ of one subgraph.
     *
     * @param subgraph the subgraph
     * @param triplets its admissible triplets (those needing at most $N$ servers)
     * @param theta    the probability of each triplet, same order, summing to 1
     */
    public record SubgraphResult(Subgraph subgraph, List<Triplet> triplets, List<Double> theta) {
        public SubgraphResult {
            triplets = List.copyOf(triplets);
            theta = List.copyOf(theta);
            if (triplets.size() != theta.size()) {
                throw new IllegalArgumentException("BUG: " + triplets.size() + " triplets but " + theta.size() + " probabilities");
            }
        }

        /** The probability of a triplet, 0 if it is not admissible. */
        public double probability(Triplet t) {
            int i = triplets.indexOf(t);
            return i < 0 ? 0 : theta.get(i);
        }
    }
}
