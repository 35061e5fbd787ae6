package dev.nona.chaos;

import java.util.Arrays;

/**
 * What a chaos run can do to the controller, its broker and its traffic. Each kind has the range its duration is
 * drawn from and the pause after it before the next fault may start (long enough for the controller to judge what
 * the fault left behind, {@code cluster.liveness-timeout} + 2 s at the default 3 s, and after a process kill long
 * enough for the process to come back). Which kinds a run draws is what its {@link FaultInjector}s support.
 */
public enum FaultKind {
    /** The broker killed with SIGKILL, started again after the duration (same data directory and port). */
    BROKER_KILL("broker-kill", 2_000, 10_000, 12_000, 20_000),
    /** The controller process ({@code bin/nona run}) killed with SIGKILL, started again after the duration (same
     *  state directory): it resumes from its newest checkpoint. */
    CONTROLLER_KILL("controller-kill", 0, 5_000, 12_000, 20_000),
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
