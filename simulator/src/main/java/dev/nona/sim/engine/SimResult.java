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
 */
public record SimResult(String policy, long jobs, LogHistogram all, LogHistogram inference, List<ClassResult> classes,
                        double linkUtilization, double meanLinkWaitSeconds, long transfers, long events,
                        double simulatedSeconds, double wallSeconds, int maxJobsInFlight, boolean truncated,
                        boolean arrivalsStopped, int inFlightLimit, boolean stoppedAtInFlightLimit) {
    public SimResult {
        classes = List.copyOf(classes);
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
