package dev.nona.chaos;

import dev.nona.bench.ControllerChildJvm;
import dev.nona.local.LocalKafkaBroker;
import java.util.EnumSet;
import java.util.Set;

/**
 * Kills with SIGKILL the processes of the embedded controller's setup, and starts them again after the fault's
 * duration: the broker (a child JVM, same data directory and ports; {@link #end} returns once it answers) and the
 * controller process (same state directory; {@link #end} returns once it is started, not once it places again).
 */
final class ProcessFaults implements FaultInjector {
    private final LocalKafkaBroker broker;
    private final ControllerChildJvm controller;

    ProcessFaults(LocalKafkaBroker broker, ControllerChildJvm controller) {
        this.broker = broker;
        this.controller = controller;
    }

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.BROKER_KILL, FaultKind.CONTROLLER_KILL);
    }

    @Override
    public void begin(ScheduledFault fault) {
        switch (fault.kind()) {
            case BROKER_KILL -> broker.kill();
            case CONTROLLER_KILL -> controller.kill();
            default -> throw new IllegalArgumentException("fault kind " + fault.kind().key() + " is not a process's");
        }
    }

    @Override
    public void end(ScheduledFault fault) {
        switch (fault.kind()) {
            case BROKER_KILL -> broker.start();
            case CONTROLLER_KILL -> controller.start();
            default -> throw new IllegalArgumentException("fault kind " + fault.kind().key() + " is not a process's");
        }
    }
}
