package dev.nona.sim.engine;

/**
 * How long to run and with which randomness.
 *
 * @param jobs            measured jobs of the counted kind (inference jobs; background jobs when the workload has no
 *                        models), at least 1
 * @param warmupJobs      counted jobs that arrive first and are not measured, at least 0
 * @param seed            seed of every random stream (arrivals per class, and the policy's)
 * @param maxEvents       a safety cap; a run that reaches it stops and reports {@code truncated}
 * @param maxJobsInFlight jobs in the system at once at which the run stops as unstable and reports the figures so
 *                        far ({@link SimResult#stoppedAtInFlightLimit}); {@link #AUTO_IN_FLIGHT} (the default) for
 *                        the limit that {@link Simulator} derives from the memory one job takes; else at least 1
 */
public record SimConfig(long jobs, long warmupJobs, long seed, long maxEvents, long maxJobsInFlight) {
    /** Let the simulator derive the in-flight limit from the memory per job ({@code JobTable.defaultLimit}). */
    public static final long AUTO_IN_FLIGHT = 0;

    public SimConfig {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs (" + jobs + ") must be >= 1");
        }
        if (warmupJobs < 0) {
            throw new IllegalArgumentException("warmup jobs (" + warmupJobs + ") must be >= 0");
        }
        if (maxEvents < 1) {
            throw new IllegalArgumentException("max events (" + maxEvents + ") must be >= 1");
        }
        if (maxJobsInFlight < 0 || maxJobsInFlight > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("max jobs in flight (" + maxJobsInFlight + ") must be >= 1, or "
                    + AUTO_IN_FLIGHT + " for the default, and <= " + Integer.MAX_VALUE);
        }
    }

    /** A run with the default in-flight limit. */
    public SimConfig(long jobs, long warmupJobs, long seed, long maxEvents) {
        this(jobs, warmupJobs, seed, maxEvents, AUTO_IN_FLIGHT);
    }

    /** {@code jobs} measured after a warm-up of a tenth as many, no practical event cap, the default in-flight limit. */
    public static SimConfig of(long jobs, long seed) {
        return new SimConfig(jobs, jobs / 10, seed, Long.MAX_VALUE);
    }

    /** This configuration with the in-flight limit {@code limit} ({@link #AUTO_IN_FLIGHT} for the default). */
    public SimConfig withMaxJobsInFlight(long limit) {
        return new SimConfig(jobs, warmupJobs, seed, maxEvents, limit);
    }
}
