package dev.nona.chaos;

import dev.nona.bench.WriteProbe;
import dev.nona.local.LocalKafkaBroker;
import java.util.EnumSet;
import java.util.Set;

/**
 * The broker's kill, the same for every target: SIGKILL of the broker (a child JVM), and after the fault's duration
 * a start on the same data directory and ports; {@link #end} returns once the restarted broker <em>accepts writes
 * again</em> (it acknowledges a {@link WriteProbe} record, connected before the first kill), the end from which
 * the time to the first decision is measured ({@link Resumption}). Owns the probe: close it after the run.
 */
final class BrokerFaults implements FaultInjector, AutoCloseable {
    private final LocalKafkaBroker broker;
    private final WriteProbe probe;

    /** The broker must be up (the probe connects). */
    BrokerFaults(LocalKafkaBroker broker) throws Exception {
        this.broker = broker;
        this.probe = new WriteProbe(broker.bootstrapServers());
    }

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.BROKER_KILL);
    }

    @Override
    public void begin(ScheduledFault fault) {
        check(fault);
        broker.kill();
    }

    @Override
    public void end(ScheduledFault fault) throws Exception {
        check(fault);
        broker.start();
        probe.write();
    }

    private static void check(ScheduledFault fault) {
        if (fault.kind() != FaultKind.BROKER_KILL) {
            throw new IllegalArgumentException("fault kind " + fault.kind().key() + " is not the broker's");
        }
    }

    @Override
    public void close() {
        probe.close();
    }
}
