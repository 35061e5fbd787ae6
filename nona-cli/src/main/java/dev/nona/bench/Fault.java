package dev.nona.bench;

/**
 * A fault a recovery run injects once, mid-stream ({@link RecoveryBenchmark}): the controller process killed and
 * started again ({@link ControllerKill}), the broker killed and started again ({@link BrokerOutage}), or the
 * TaskManager that runs the controller job killed ({@link TaskManagerKill}). Reusable by any harness that injects
 * faults: {@link #inject} blocks until the fault has ended and says when it started and ended.
 */
public interface Fault {
    /** The fault's name, as {@code --fault} spells it ({@code broker-kill}, ...). */
    String name();

    /** Injects the fault and returns once it has ended (the broker accepts writes again, the process restarted, ...). */
    Window inject() throws Exception;

    /**
     * The time (epoch milliseconds) from which decisions on {@code placement-decisions} (by their record time) are
     * the recovered controller's, for the time to the first decision after the fault; by default the fault's end.
     * Called after the run.
     */
    default long recoveredFromEpochMillis(Window w) {
        return w.endEpochMillis();
    }

    /**
     * When a fault started and ended, on both clocks: {@link System#nanoTime()} (to line up with request times) and
     * the wall clock (to line up with record timestamps).
     */
    record Window(long startNanos, long endNanos, long startEpochMillis, long endEpochMillis) {
        public Window {
            if (endNanos - startNanos < 0) {
                throw new IllegalArgumentException("a fault's end (" + endNanos + " ns) must not be before its start ("
                        + startNanos + " ns)");
            }
        }

        /** A fault that started at {@code startNanos}/{@code startEpochMillis} and ends now. */
        public static Window endingNow(long startNanos, long startEpochMillis) {
            return new Window(startNanos, System.nanoTime(), startEpochMillis, System.currentTimeMillis());
        }

        /** The fault's duration in milliseconds. */
        public double millis() {
            return Math.round((endNanos - startNanos) / 10_000.0) / 100.0;
        }
    }
}
