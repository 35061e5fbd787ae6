package dev.nona.sim.engine;

import dev.nona.sim.JobKind;
import dev.nona.sim.stats.LogHistogram;
import java.util.List;

/**
 * What one run measured. JCTs are in seconds, over the measured jobs (warm-up excluded).
 *
 * @param policy              the policy's name
 * @param jobs                measured jobs of the counted kind
 * @param all                 JCTs of every measured job (inference and background)
 * @param inference           JCTs of measured inference jobs
 * @param classes             per job class
 * @param linkUtilization     fraction of simulated time the link was busy
 * @param meanLinkWaitSeconds mean time a measured job's transfer waited in the link queue before service
 * @param transfers           transfers of measured jobs
 * @param events              events processed
 * @param simulatedSeconds    simulated time at the end
 * @param wallSeconds         wall-clock time of the run
 * @param maxJobsInFlight     the most jobs in the system at once
 * @param truncated           true if the run hit the event cap before every measured job completed
 * @param arrivalsStopped     true if arrivals were stopped after the window because the jobs in flight kept
 *                            growing (an unstable run); the JCTs are then those of a draining system
 * @param inFlightLimit       the jobs in flight at which the run would stop ({@link SimConfig#maxJobsInFlight})
 * @param stoppedAtInFlightLimit true if the jobs in flight reached {@code inFlightLimit} (an unstable run) and the
 *                            run stopped there; the figures are those of the measured jobs completed by then
 * @param coldStarts          cold starts over the run (parts loaded on first use; 0 without model caches)
 * @param reloads             of those, the cold starts that loaded again a unit (a model's contracted task) its server
 *                            had loaded before and evicted; the rest are first loads, at most one per server and unit,
 *                            so only reloads recur at a steady rate however long the run
 * @param evictions           cached units (a model's contracted task) evicted over the run
 * @param memoryViolations    placements of a part on a server that could not hold it, refused by the caches
 * @param serverClasses       per server class, in the cluster's order
 */
public record SimResult(String policy, long jobs, LogHistogram all, LogHistogram inference, List<ClassResult> classes,
                        double linkUtilization, double meanLinkWaitSeconds, long transfers, long events,
                        double simulatedSeconds, double wallSeconds, int maxJobsInFlight, boolean truncated,
                        boolean arrivalsStopped, int inFlightLimit, boolean stoppedAtInFlightLimit, long coldStarts,
                        long reloads, long evictions, long memoryViolations, List<ServerClassResult> serverClasses) {
    public SimResult {
        classes = List.copyOf(classes);
        serverClasses = List.copyOf(serverClasses);
    }

    /** A result without placement figures (no cold starts, evictions or violations; no server classes yet). */
    public SimResult(String policy, long jobs, LogHistogram all, LogHistogram inference, List<ClassResult> classes,
                     double linkUtilization, double meanLinkWaitSeconds, long transfers, long events,
                     double simulatedSeconds, double wallSeconds, int maxJobsInFlight, boolean truncated,
                     boolean arrivalsStopped, int inFlightLimit, boolean stoppedAtInFlightLimit) {
        this(policy, jobs, all, inference, classes, linkUtilization, meanLinkWaitSeconds, transfers, events, simulatedSeconds,
                wallSeconds, maxJobsInFlight, truncated, arrivalsStopped, inFlightLimit, stoppedAtInFlightLimit, 0, 0, 0, 0, List.of());
    }

    /** The same result with the run's model-cache and server-class figures. */
    public SimResult withPlacementStats(long coldStarts, long reloads, long evictions, long memoryViolations,
                                        List<ServerClassResult> serverClasses) {
        return new SimResult(policy, jobs, all, inference, classes, linkUtilization, meanLinkWaitSeconds, transfers, events,
                simulatedSeconds, wallSeconds, maxJobsInFlight, truncated, arrivalsStopped, inFlightLimit,
                stoppedAtInFlightLimit, coldStarts, reloads, evictions, memoryViolations, serverClasses);
    }

    /**
     * Per server class: the fraction of the run its servers were busy (cold starts included), and the parts (a job's
     * tasks on one server) placed on them.
     */
    public record ServerClassResult(String name, double utilisation, long partsRun) {
    }

    /** Per job class. */
    public record ClassResult(String name, JobKind kind, LogHistogram jct) {
    }

    /** True if the run grew unstable: arrivals were stopped, or it stopped at the in-flight limit. */
    public boolean unstable() {
        return arrivalsStopped || stoppedAtInFlightLimit;
    }

    public double eventsPerSecond() {
        return wallSeconds > 0 ? events / wallSeconds : Double.NaN;
    }

    public double meanJctSeconds() {
        return all.mean();
    }

    public double p99JctSeconds() {
        return all.quantile(0.99);
    }
}
