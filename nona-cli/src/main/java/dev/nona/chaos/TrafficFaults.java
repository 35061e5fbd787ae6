package dev.nona.chaos;

import dev.nona.bench.BadInputPublisher;
import java.util.EnumSet;
import java.util.Set;

/**
 * Faults of what reaches the controller: a telemetry stall and a server falling silent ({@link TelemetryAgent}),
 * and a burst of malformed records ({@link BadInputPublisher}, its own producer, beside the good requests). Counts
 * the malformed records sent, stored by the broker and refused by it (too large).
 */
final class TrafficFaults implements FaultInjector {
    private final String bootstrap;
    private final TelemetryAgent telemetry;
    private BadInputPublisher burst;
    private long badSent;
    private long badAcked;
    private long badRefused;

    TrafficFaults(String bootstrap, TelemetryAgent telemetry) {
        this.bootstrap = bootstrap;
        this.telemetry = telemetry;
    }

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.TELEMETRY_STALL, FaultKind.MALFORMED_BURST, FaultKind.SERVER_SILENT,
                FaultKind.SERVER_SILENT_FOR_GOOD);
    }

    @Override
    public void begin(ScheduledFault fault) {
        switch (fault.kind()) {
            case TELEMETRY_STALL -> telemetry.stall(true);
            case SERVER_SILENT, SERVER_SILENT_FOR_GOOD -> telemetry.silence(fault.server());
            case MALFORMED_BURST -> burst = new BadInputPublisher(bootstrap, fault.perSecond()).start();
            default -> throw new IllegalArgumentException("fault kind " + fault.kind().key() + " is not traffic's");
        }
    }

    @Override
    public void end(ScheduledFault fault) {
        switch (fault.kind()) {
            case TELEMETRY_STALL -> telemetry.stall(false);
            case SERVER_SILENT -> telemetry.resume(fault.server());
            case SERVER_SILENT_FOR_GOOD -> { }
            case MALFORMED_BURST -> {
                burst.close();
                badSent += burst.sent();
                badAcked += burst.acked();
                badRefused += burst.refused();
                burst = null;
            }
            default -> throw new IllegalArgumentException("fault kind " + fault.kind().key() + " is not traffic's");
        }
    }

    long badSent() {
        return badSent;
    }

    long badAcked() {
        return badAcked;
    }

    long badRefused() {
        return badRefused;
    }
}
