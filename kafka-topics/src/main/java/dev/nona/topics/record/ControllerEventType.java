package dev.nona.topics.record;

/** What a {@link ControllerEvent} reports. */
public enum ControllerEventType {
    /** A model's estimated rate (or the cluster) drifted past the threshold for the configured number of windows. */
    DRIFT_DETECTED,
    /** The cluster changed: a server went up or down, or the link capacity changed. */
    CLUSTER_CHANGED,
    /** A model was added to, replaced in or removed from the catalog. */
    CATALOG_UPDATED,
    /** The optimiser started solving for new rates. */
    REOPTIMIZATION_STARTED,
    /** The optimiser finished (objective, solve time, link load in the details). */
    REOPTIMIZATION_FINISHED,
    /** A new table was published to the placement operator. */
    TABLE_PUBLISHED,
    /** A solved table was not published because it does not beat the current one at the new rates. */
    TABLE_REJECTED,
    /** The offered load makes the link unstable ($\rho \ge 1$) under every table. */
    INFEASIBLE_LOAD,
    /** The controller fell back to the safe fallback table. */
    FALLBACK,
    /** A record was sent to {@code dead-letters}. */
    RECORD_REJECTED,
    /**
     * A solve failed (the solver threw or returned an error): the trigger stays and is retried with backoff
     * (cause, error, attempt and retryInMillis in the details).
     */
    SOLVE_FAILED,
    /** A solve ran past {@code solve.timeout} and was cancelled: the trigger stays and is retried with backoff. */
    SOLVE_TIMED_OUT,
    /**
     * Once per window with outcomes: what the controller learned by joining its decisions with their outcomes
     * (observed against predicted JCT per model, effective speed and cold-start time per server; bounded).
     */
    CALIBRATION,
    /**
     * A published table was observed to do worse than the one it replaced (over enough outcomes, by more than
     * {@code rollback.margin}): the controller published the previous table again, as a new version (both
     * figures in the details).
     */
    TABLE_ROLLED_BACK,
    /**
     * An operator command from {@code controller-commands} was applied (commandId, kind, scope and what it did in
     * the details); a command that cannot be applied is a dead letter instead.
     */
    COMMAND_APPLIED,
    /**
     * Drift was detected while re-optimisation is frozen (a {@code FREEZE} command): recorded, not solved until
     * {@code UNFREEZE} (cause in the details).
     */
    DRIFT_FROZEN,
    /**
     * The controller started: from which checkpoint it resumed, or that it started fresh and why (no checkpoint found,
     * {@code --fresh}, unreadable), and what it read before placing (catalog models, the table it starts with).
     */
    CONTROLLER_STARTED,
    /**
     * No telemetry at all arrived for longer than {@code cluster.liveness-timeout}: the servers last known live stay
     * live (none is declared silent one by one) until reports resume ({@code lastReportTime}, {@code timeoutMillis},
     * {@code servers} in the details).
     */
    TELEMETRY_STALLED,
    /** Telemetry arrives again after {@code TELEMETRY_STALLED} ({@code stalledForMillis}, {@code servers}). */
    TELEMETRY_RESUMED,
    /**
     * A placement subtask started holding requests: no server is up or the catalog is empty ({@code subtask},
     * {@code reason}, {@code holdTimeoutMillis} in the details).
     */
    REQUESTS_HELD,
    /**
     * A placement subtask holds no more requests: {@code placed} were placed, {@code deadLettered} became dead
     * letters (past {@code placement.hold-timeout} or not placeable), over {@code heldForMillis}.
     */
    REQUESTS_RELEASED,
    /**
     * A model cannot be placed on any up server: one of its tasks alone needs more memory than every up server has
     * ({@code model}, {@code task}, {@code taskBytes}, {@code largestMemoryBytes} in the details). Its requests become
     * dead letters with that reason until a server that can hold the task reports, or the catalog changes.
     */
    MODEL_UNPLACEABLE
}
