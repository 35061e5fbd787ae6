package dev.nona.sim;

import dev.nona.check.Checks;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the simulator runs: a cluster and the job classes arriving to it (models and background jobs).
 *
 * @param cluster the servers and the link
 * @param classes the job classes, at least one, with distinct names
 */
public record SimWorkload(SimCluster cluster, List<SimJobClass> classes) {
    public SimWorkload {
        Objects.requireNonNull(cluster, "workload cluster");
        classes = List.copyOf(classes);
        if (classes.isEmpty()) {
            throw new IllegalArgumentException("workload classes must not be empty");
        }
        if (classes.stream().map(SimJobClass::name).distinct().count() != classes.size()) {
            throw new IllegalArgumentException("workload class names must be distinct: " + classes.stream().map(SimJobClass::name).toList());
        }
    }

    /** True if at least one class is a model (an inference DAG) that arrives (rate > 0). */
    public boolean hasModels() {
        return classes.stream().anyMatch(c -> c.kind() == JobKind.INFERENCE && c.ratePerSecond() > 0);
    }

    /**
     * The compute load $\sum_j \beta_j S_j / N$ over every class (Nona, Section IV-B), where $S_j$ is the sum of
     * $j$'s task service times $p^t/\nu$.
     */
    public double computeLoad() {
        double sum = 0;
        for (SimJobClass c : classes) {
            sum += c.ratePerSecond() * c.totalOps() / cluster.opsPerSecond();
        }
        return sum / cluster.servers();
    }

    /**
     * A lower bound on the mean JCT of the inference jobs under any placement: each model's {@link
     * SimJobClass#longestPathOps() longest path} computed at the fastest class's speed $\max_c \nu_c$, with no
     * transfer, wait or cold start, averaged with the models' arrival rates as weights,
     * $\sum_j \beta_j L_j / \max_c \nu_c \,/\, \sum_j \beta_j$. A job's tasks on one path run one after another,
     * each for its ops over its server's speed, so no policy's expected mean JCT is below it. It does not change
     * with the load ({@link #withLoad} scales every rate by one factor). NaN if no model arrives.
     */
    public double inferenceJctLowerBoundSeconds() {
        double fastest = cluster.classes().stream().mapToDouble(ServerClass::opsPerSecond).max().orElseThrow();
        double weighted = 0;
        double rate = 0;
        for (SimJobClass c : classes) {
            if (c.kind() == JobKind.INFERENCE && c.ratePerSecond() > 0) {
                weighted += c.ratePerSecond() * c.longestPathOps();
                rate += c.ratePerSecond();
            }
        }
        return rate > 0 ? weighted / rate / fastest : Double.NaN;
    }

    /** Link load of the background communication jobs alone: $\sum \beta b / \mu$. */
    public double backgroundLinkLoad() {
        double sum = 0;
        for (SimJobClass c : classes) {
            sum += c.ratePerSecond() * c.commBits() / cluster.linkBitsPerSecond();
        }
        return sum;
    }

    /**
     * Every class's rate multiplied by one factor so that {@link #computeLoad()} equals {@code load}; the ratio
     * between classes (e.g. inference:background = 100:1) is kept. A workload with no compute demand
     * (background communication only) is scaled so that its link load equals {@code load} instead.
     */
    public SimWorkload withLoad(double load) {
        Checks.positive(load, "load");
        double current = computeLoad() > 0 ? computeLoad() : backgroundLinkLoad();
        if (!(current > 0)) {
            throw new IllegalArgumentException("load cannot be scaled: every class has rate 0 or no demand");
        }
        return withRatesScaled(load / current);
    }

    /** Every class's rate multiplied by {@code factor}. */
    public SimWorkload withRatesScaled(double factor) {
        List<SimJobClass> scaled = new ArrayList<>();
        for (SimJobClass c : classes) {
            scaled.add(c.withRate(c.ratePerSecond() * factor));
        }
        return new SimWorkload(cluster, scaled);
    }

    public SimWorkload withCluster(SimCluster other) {
        return new SimWorkload(other, classes);
    }

    public SimWorkload withClasses(List<SimJobClass> other) {
        return new SimWorkload(cluster, other);
    }

    public int indexOf(String className) {
        for (int i = 0; i < classes.size(); i++) {
            if (classes.get(i).name().equals(className)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no job class named '" + className + "'");
    }
}
