package dev.nona.sim.engine;

/**
 * How long to run and with which randomness.
 *
 * @param jobs       measured jobs of the counted kind (inference jobs; background jobs when the workload has no
 *                   models), at least 1
 * @param warmupJobs counted jobs that arrive first and are not measured, at least 0
 * @param seed       seed of every random stream (arrivals per class, and the policy's)
 * @param maxEvents  a safety cap; a run that reaches it stops and reports {@code truncated}
 */
public record SimConfig(long jobs, long warmupJobs, long seed, long maxEvents) {
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
    }

    /** {@code jobs} measured after a warm-up of a tenth as many, no practical event cap. */
    public static SimConfig of(long jobs, long seed) {
        return new SimConfig(jobs, jobs / 10, seed, Long.MAX_VALUE);
    }
}
