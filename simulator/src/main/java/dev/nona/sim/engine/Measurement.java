package dev.nona.sim.engine;

import dev.nona.sim.JobKind;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.stats.LogHistogram;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link Simulator} run measures, and when it may stop. Jobs of the counted kind (inference jobs; background
 * jobs when the workload has no models) are numbered as they arrive; every job that arrives while that number is in
 * the window {@code [warmupJobs, warmupJobs + jobs)} is measured: its JCT goes into streaming histograms (all, inference
 * only, per class) and its transfers' link waits into a mean. After the window, arrivals go on until the jobs in flight
 * reach four times their number at the window's end (at least 50,000), then stop ({@code arrivalsStopped}); the run
 * is complete once every measured job has completed. Whatever the window, a run whose jobs in flight reach the
 * in-flight limit stops there ({@code stoppedAtInFlightLimit}), with the figures of the jobs completed so far: the
 * limit bounds its memory. Not thread-safe.
 */
final class Measurement {
    private static final long MIN_DRAIN_CAP = 50_000;

    private final SimJobClass[] classes;
    private final boolean countInference;
    private final long measureFrom;
    private final long measureTo;

    private long countedArrivals;
    private long outstanding;
    /** Jobs in flight at which arrivals stop once the window has closed; -1 before it closes. */
    private long drainCap = -1;
    private boolean arrivalsStopped;
    private final int inFlightLimit;
    private boolean stoppedAtInFlightLimit;

    private double linkWaitSum;
    private long transfers;
    private final LogHistogram all = new LogHistogram();
    private final LogHistogram inference = new LogHistogram();
    private final LogHistogram[] perClass;

    /**
     * @param classes        the workload's job classes, indexed as the simulator indexes them
     * @param countInference true if inference jobs are the counted kind, false if background jobs are
     * @param inFlightLimit  jobs in flight at which the run stops, at least 1
     */
    Measurement(SimJobClass[] classes, boolean countInference, SimConfig config, int inFlightLimit) {
        if (inFlightLimit < 1) {
            throw new IllegalArgumentException("in-flight limit (" + inFlightLimit + ") must be >= 1");
        }
        this.inFlightLimit = inFlightLimit;
        this.classes = classes;
        this.countInference = countInference;
        this.measureFrom = config.warmupJobs();
        this.measureTo = config.warmupJobs() + config.jobs();
        this.perClass = new LogHistogram[classes.length];
        for (int i = 0; i < classes.length; i++) {
            perClass[i] = new LogHistogram();
        }
    }

    /** Counts an arriving job of class {@code jc}; returns whether it is measured (then it is outstanding until {@link #jobDone}). */
    boolean arrival(SimJobClass jc) {
        boolean measured = countedArrivals >= measureFrom && countedArrivals < measureTo;
        if ((jc.kind() == JobKind.INFERENCE) == countInference) {
            countedArrivals++;
        }
        if (measured) {
            outstanding++;
        }
        return measured;
    }

    /**
     * Whether the next arrival of a class is scheduled, given the jobs in flight before this arrival took its slot.
     * If this arrival brings them to the in-flight limit, the run is over ({@link #complete}).
     */
    boolean keepArriving(int inFlight) {
        if (inFlight + 1 >= inFlightLimit) {
            stoppedAtInFlightLimit = true;
            return false;
        }
        if (countedArrivals >= measureTo && drainCap < 0) {
            drainCap = Math.max(MIN_DRAIN_CAP, 4L * inFlight);
        }
        if (drainCap < 0 || inFlight < drainCap) {
            return true;
        }
        arrivalsStopped = true;
        return false;
    }

    /** A measured job's transfer started after waiting {@code waitSeconds} in the link's queue. */
    void transferStarted(double waitSeconds) {
        linkWaitSum += waitSeconds;
        transfers++;
    }

    /** A measured job of class {@code c} completed after {@code jct} seconds in the system. */
    void jobDone(int c, double jct) {
        all.record(jct);
        perClass[c].record(jct);
        if (classes[c].kind() == JobKind.INFERENCE) {
            inference.record(jct);
        }
        outstanding--;
    }

    /** True once the window has closed and every measured job has completed, or the jobs in flight reached the limit. */
    boolean complete() {
        return stoppedAtInFlightLimit || countedArrivals >= measureTo && outstanding == 0;
    }

    /**
     * The run's result.
     *
     * @param now         simulated time at the end
     * @param linkBusy    seconds the link was busy up to {@code now}
     */
    SimResult result(String policyName, double now, double linkBusy, long events, double wallSeconds, int maxJobsInFlight,
                     boolean truncated) {
        List<SimResult.ClassResult> perClassResults = new ArrayList<>();
        for (int i = 0; i < classes.length; i++) {
            perClassResults.add(new SimResult.ClassResult(classes[i].name(), classes[i].kind(), perClass[i]));
        }
        return new SimResult(policyName, Math.max(0, Math.min(countedArrivals, measureTo) - measureFrom), all, inference,
                perClassResults, now > 0 ? linkBusy / now : 0, transfers == 0 ? 0 : linkWaitSum / transfers, transfers,
                events, now, wallSeconds, maxJobsInFlight, truncated, arrivalsStopped, inFlightLimit,
                stoppedAtInFlightLimit);
    }
}
