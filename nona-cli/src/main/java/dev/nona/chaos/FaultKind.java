package dev.nona.chaos;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a chaos run can do to the controller, its broker and its traffic. Each kind has the range its duration is
 * drawn from and the pause after it before the next fault may start (long enough for the controller to judge what
 * the fault left behind, {@code cluster.liveness-timeout} + 2 s at the default 3 s, and after a process kill long
 * enough for the process to come back). Which kinds a run draws is what its {@link FaultInjector}s support: the
 * embedded controller ({@link ChaosRun}) all but the Flink cluster's kills, the controller job on a multi-process
 * cluster with ZooKeeper high availability ({@link ChaosOnCluster}) all but the controller process's kill.
 */
public enum FaultKind {
    /** The broker killed with SIGKILL, started again after the duration (same data directory and port); it ends when
     *  the restarted broker accepts writes again ({@link BrokerFaults}). */
    BROKER_KILL("broker-kill", 2_000, 10_000, 12_000, 20_000),
    /** The controller process ({@code bin/nona run}) killed with SIGKILL, started again after the duration (same
     *  state directory): it resumes from its newest checkpoint. */
    CONTROLLER_KILL("controller-kill", 0, 5_000, 12_000, 20_000),
    /** A TaskManager that runs the controller job killed with SIGKILL: Flink restarts the job from its latest
     *  checkpoint on the slots left (the other TaskManager, which holds the control loop's or the request path's slot
     *  and so has the job loaded, or a spare); after the duration a new spare TaskManager is started. The gap covers
     *  the loss's detection (heartbeats) and the restore. */
    TASKMANAGER_KILL("taskmanager-kill", 0, 3_000, 15_000, 25_000),
    /** The leading JobManager killed with SIGKILL: the standby takes over once ZooKeeper expires the leader's session
     *  (10 s) and recovers the job from its latest checkpoint; after the duration the killed one is started again as
     *  the standby. */
    JOBMANAGER_KILL("jobmanager-kill", 0, 5_000, 25_000, 35_000),
    /** Every server's reports stop for the duration (the telemetry path fails, the servers do not). */
    TELEMETRY_STALL("telemetry-stall", 5_000, 12_000, 5_000, 10_000),
    /** Malformed records ({@code BadInput}'s cycle) at a drawn rate for the duration, beside the good traffic. */
    MALFORMED_BURST("malformed-burst", 1_000, 2_000, 5_000, 10_000),
    /** One server stops reporting for the duration, then reports again. */
    SERVER_SILENT("server-silent", 5_000, 15_000, 5_000, 10_000),
    /** One server stops reporting for good (duration 0: the fault is its onset). */
    SERVER_SILENT_FOR_GOOD("server-silent-for-good", 0, 0, 5_000, 10_000);

    private final String key;
    final long minMillis;
    final long maxMillis;
    final long minGapMillis;
    final long maxGapMillis;

    FaultKind(String key, long minMillis, long maxMillis, long minGapMillis, long maxGapMillis) {
        this.key = key;
        this.minMillis = minMillis;
        this.maxMillis = maxMillis;
        this.minGapMillis = minGapMillis;
        this.maxGapMillis = maxGapMillis;
    }

    /** The kinds a chaos run against the embedded controller ({@code bin/nona run}) injects. */
    public static Set<FaultKind> embedded() {
        return EnumSet.complementOf(EnumSet.of(TASKMANAGER_KILL, JOBMANAGER_KILL));
    }

    /** The kinds a chaos run against the controller job on a multi-process Flink cluster with HA injects. */
    public static Set<FaultKind> onCluster() {
        return EnumSet.complementOf(EnumSet.of(CONTROLLER_KILL));
    }

    /** The name in the JSON output and on the command line, e.g. {@code broker-kill}. */
    public String key() {
        return key;
    }

    /** Whether it targets one server. */
    public boolean targetsServer() {
        return this == SERVER_SILENT || this == SERVER_SILENT_FOR_GOOD;
    }

    /** The kind named {@code key}; throws naming the known ones. */
    public static FaultKind parse(String key) {
        return Arrays.stream(values()).filter(k -> k.key.equals(key)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("fault kind '" + key + "' is not one of "
                        + Arrays.stream(values()).map(FaultKind::key).toList()));
    }
}
