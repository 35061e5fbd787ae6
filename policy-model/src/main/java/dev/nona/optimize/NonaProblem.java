package dev.nona.optimize;

import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * One instance of Nona's optimisation problem: job classes with their rates, the cluster, background load and
 * the formulation to use.
 *
 * @param jobs       the job classes, unique names, at least one
 * @param cluster    servers $N$, compute rate $\nu$, link capacity $\mu$
 * @param background background load (never null)
 * @param costModel  the formulation
 */
public record NonaProblem(List<JobClass> jobs, Cluster cluster, Background background, CostModel costModel) {
    public NonaProblem {
        jobs = List.copyOf(jobs);
        Objects.requireNonNull(cluster, "cluster");
        background = background == null ? Background.NONE : background;
        Objects.requireNonNull(costModel, "costModel");
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("problem needs at least one job class");
        }
        var names = new HashSet<String>();
        jobs.forEach(j -> {
            if (!names.add(j.name())) {
                throw new IllegalArgumentException("duplicate job class name '" + j.name() + "'");
            }
        });
    }

    /** The same problem on a cluster of {@code n} servers. */
    public NonaProblem withServers(int n) {
        return new NonaProblem(jobs, cluster.withServers(n), background, costModel);
    }
}
