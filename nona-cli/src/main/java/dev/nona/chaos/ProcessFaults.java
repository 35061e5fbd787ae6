package dev.nona.chaos;

import dev.nona.bench.ControllerChildJvm;
import java.util.EnumSet;
import java.util.Set;

/**
 * Kills with SIGKILL the controller process of the embedded controller's setup ({@code bin/nona run}), and starts it
 * again after the fault's duration (same state directory; {@link #end} returns once it is started, not once it
 * places again). The broker's kill is {@link BrokerFaults}'.
 */
final class ProcessFaults implements FaultInjector {
    private final ControllerChildJvm controller;

    ProcessFaults(ControllerChildJvm controller) {
        this.controller = controller;
    }

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.CONTROLLER_KILL);
    }

    @Override
    public void begin(ScheduledFault fault) {
        check(fault);
        controller.kill();
    }

    @Override
    public void end(ScheduledFault fault) {
        check(fault);
        controller.start();
    }

    private static void check(ScheduledFault fault) {
        if (fault.kind() != FaultKind.CONTROLLER_KILL) {
            throw new IllegalArgumentException("fault kind " + fault.kind().key() + " is not the controller "
                    + "process's");
        }
    }
}
