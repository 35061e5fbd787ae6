package dev.nona.controller.placement;

import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.placement.LiveServers;
import dev.nona.placement.OperatorRules;
import dev.nona.placement.ServerRules;
import dev.nona.topics.record.InferenceRequest;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * The operator's commands in the placement operator: the commands in force live in broadcast state
 * ({@link #COMMANDS}, newest sequence wins whatever the arrival order), and before every decision (table-driven,
 * fallback or held at startup) policy-model's {@link ServerRules} says which servers the request may use, or why it
 * cannot be placed (then it is a dead letter with that reason). A tenant's share is counted in requests: the
 * fraction of the requests this subtask placed in the last 10 s of event time that are the tenant's.
 *
 * <p>Not thread safe: one per operator instance; transient (rebuilt from the broadcast state after a restore; the
 * shares start afresh).
 */
final class PlacementRules {
    private static final String CURRENT = "current";
    /** The commands in force. */
    static final MapStateDescriptor<String, ActiveCommands> COMMANDS =
            new MapStateDescriptor<>("operator-commands", Types.STRING, JsonRecordTypeInfo.of(ActiveCommands.class));

    private final ServerRules rules = new ServerRules();
    private boolean dirty = true;
    private LiveServers appliedTo;

    /** Stores a broadcast update of the commands in force (if newer than the one held). */
    void store(BroadcastState<String, ActiveCommands> state, ActiveCommands commands) throws Exception {
        ActiveCommands held = state.get(CURRENT);
        if (held == null || commands.sequence() > held.sequence()) {
            state.put(CURRENT, commands);
            dirty = true;
        }
    }

    /**
     * Applies the commands to {@code servers} if they changed or the servers were rebuilt (drains change the live
     * servers); returns whether it applied them. $O(1)$ when nothing changed.
     *
     * @param inForce the commands to apply given the state's (null while it holds none): see
     *                {@link BootstrapSnapshot#commands}
     */
    boolean refresh(Supplier<ReadOnlyBroadcastState<String, ActiveCommands>> state, LiveServers servers,
            UnaryOperator<ActiveCommands> inForce) throws Exception {
        if (!dirty && servers == appliedTo) {
            return false;
        }
        ActiveCommands held = inForce.apply(state.get().get(CURRENT));
        rules.update(held == null ? OperatorRules.NONE : held.rules(), servers);
        appliedTo = servers;
        dirty = false;
        return true;
    }

    /** Restricts {@code servers} to those {@code request} may use; returns why it cannot be placed, or null. */
    String admit(LiveServers servers, InferenceRequest request) {
        ServerRules.Admission a = rules.admit(servers, request.model(), request.tenant(), request.eventTime());
        servers.restrict(a.filter());
        return a.refusal();
    }

    /** {@code request} was placed: counts it in its tenant's share, and lifts the restriction. */
    void placed(LiveServers servers, InferenceRequest request) {
        servers.restrict(null);
        rules.placed(request.tenant(), request.eventTime());
    }
}
