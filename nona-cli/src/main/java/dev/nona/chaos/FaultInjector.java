package dev.nona.chaos;

import java.util.Set;

/**
 * Does faults of some kinds to a chaos run's target and undoes them. A run draws its schedule from the kinds its
 * injectors support, so a target with more parts (a multi-process Flink cluster: TaskManager and JobManager kills)
 * is one more injector. {@link #begin} and {@link #end} are called from one thread, in schedule order, never
 * overlapping; {@link #end} may block until the part is back (a broker that answers again).
 */
interface FaultInjector {
    /** The kinds it can do. */
    Set<FaultKind> kinds();

    /** Does {@code fault} (one of {@link #kinds()}). */
    void begin(ScheduledFault fault) throws Exception;

    /** Undoes {@code fault} after its duration (not called for a server silent for good). */
    void end(ScheduledFault fault) throws Exception;
}
