package dev.nona.calibration;

/**
 * What one server's parts showed over a window: totals, and the effective speed and cold-start time they give.
 * Immutable; {@link #plus(PartObservation)} returns a new tally.
 *
 * @param parts            parts observed
 * @param timedParts       parts that count in the speed: known ops and an observed compute time {@code > 0}
 * @param ops              operations of the timed parts
 * @param computeSeconds   observed compute seconds of the timed parts
 * @param coldStarts       cold parts with a cold-start time
 * @param coldStartSeconds their cold-start seconds, summed
 */
public record ServerTally(long parts, long timedParts, double ops, double computeSeconds, long coldStarts,
        double coldStartSeconds) {
    /** No parts. */
    public static final ServerTally EMPTY = new ServerTally(0, 0, 0, 0, 0, 0);

    /** This tally with {@code part} added (its server is not checked: the caller keys tallies by server). */
    public ServerTally plus(PartObservation part) {
        double compute = part.observedComputeSeconds();
        boolean timed = !Double.isNaN(part.ops()) && compute > 0;
        double cold = part.coldStartSeconds();
        boolean coldStart = !Double.isNaN(cold);
        return new ServerTally(parts + 1, timedParts + (timed ? 1 : 0), ops + (timed ? part.ops() : 0),
                computeSeconds + (timed ? compute : 0), coldStarts + (coldStart ? 1 : 0),
                coldStartSeconds + (coldStart ? cold : 0));
    }

    /**
     * The effective speed in operations per second: the timed parts' ops over their observed compute seconds (a
     * ratio of sums, so long parts weigh more than short ones, as they do in the server's busy time); NaN when no
     * part was timed.
     */
    public double effectiveOpsPerSecond() {
        return timedParts == 0 ? Double.NaN : ops / computeSeconds;
    }

    /** The mean observed cold-start time in seconds; NaN when there was none. */
    public double meanColdStartSeconds() {
        return coldStarts == 0 ? Double.NaN : coldStartSeconds / coldStarts;
    }
}
