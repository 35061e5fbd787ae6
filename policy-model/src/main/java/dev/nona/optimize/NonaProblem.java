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
 * @param coldProbability where the cluster's {@code coldStart} is set: the probability that a part is not loaded where
 *                   it lands, from the cache state; null: the steady-state estimate ({@link SteadyStateCache})
 */
public record NonaProblem(List<JobClass> jobs, Cluster cluster, Background background, CostModel costModel,
                          PartColdProbability coldProbability) {
    /** A problem without a cache state (the steady-state estimate when the cluster models cold starts). */
    public NonaProblem(List<JobClass> jobs, Cluster cluster, Background background, CostModel costModel) {
        this(jobs, cluster, background, costModel, null);
    }

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

    /** The same problem with the cache state's cold probability {@code p} (null: the steady-state estimate). */
    public NonaProblem withColdProbability(PartColdProbability p) {
        return new NonaProblem(jobs, cluster, background, costModel, p);
    }

    /** The same problem with other job classes. */
    public NonaProblem withJobs(List<JobClass> newJobs) {
        return new NonaProblem(newJobs, cluster, background, costModel, coldProbability);
    }

    /** The same problem on a cluster of {@code n} servers. */
    public NonaProblem withServers(int n) {
        return new NonaProblem(jobs, cluster.withServers(n), background, costModel, coldProbability);
    }
}
