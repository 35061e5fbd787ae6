package dev.nona.controller.command;

import dev.nona.controller.serde.ControlJson;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.CommandKind;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's commands (docs/design.md, "Operator commands"): keeps the commands in force ({@link ActiveCommands}, keyed state, so they
 * survive a restore; a fresh start begins with those in force at start, {@link CommandReplay}, and reads on from
 * where that replay stopped, or re-reads the compacted topic from its beginning when it has none) and emits the new set after
 * every change, for the placement operator (broadcast) and the control loop. Each state-setting command is
 * acknowledged with a {@code COMMAND_APPLIED} event saying what it did; a rollback goes to the control loop, which
 * acknowledges it (only it knows the tables it kept); a command that cannot be applied (a server that would be
 * owned by two tenants) is a dead letter with the reason, and changes nothing.
 *
 * <p>Runs with parallelism 1 under one constant key. A replayed command (after a restore) is applied again, which
 * changes nothing (the latest command of a scope wins) but is acknowledged again.
 */
public final class CommandFunction extends KeyedProcessFunction<String, CommandRecord, ActiveCommands> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(CommandFunction.class);

    public static final String KEY = "commands";
    /** Acknowledgements. */
    public static final OutputTag<ControllerEvent> EVENTS =
            new OutputTag<>("command-events", JsonRecordTypeInfo.of(ControllerEvent.class));
    /** Commands that do not parse or cannot be applied. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("command-dead-letters", JsonRecordTypeInfo.of(DeadLetter.class));
    /** Rollbacks, for the control loop. */
    public static final OutputTag<CommandRecord> ROLLBACKS =
            new OutputTag<>("rollbacks", JsonRecordTypeInfo.of(CommandRecord.class));

    /**
     * The commands in force before the first command this operator reads (a fresh start's, see
     * {@link CommandReplay}), as JSON: Flink's closure cleaner does not reach into a string.
     */
    private final String startJson;
    private transient ActiveCommands start;
    private transient ValueState<ActiveCommands> active;

    /** An operator with no command in force before the first it reads (its source reads the topic from its beginning). */
    public CommandFunction() {
        this(ActiveCommands.NONE);
    }

    /**
     * @param start the commands in force before the first command it reads: on a fresh start, those read up to the
     *              end offsets seen at start, from which its source then reads on; ignored once its state holds
     *              commands (after the first change, and after a restore)
     */
    public CommandFunction(ActiveCommands start) {
        this.startJson = ControlJson.write(Objects.requireNonNull(start, "commands in force at start"));
    }

    @Override
    public void open(OpenContext openContext) {
        start = ControlJson.read(startJson, ActiveCommands.class);
        active = getRuntimeContext().getState(
                new ValueStateDescriptor<>("active-commands", JsonRecordTypeInfo.of(ActiveCommands.class)));
    }

    @Override
    public void processElement(CommandRecord record, Context ctx, Collector<ActiveCommands> out) throws Exception {
        long now = ctx.timerService().currentProcessingTime();
        if (record.rejected() != null) {
            ctx.output(DEAD_LETTERS, record.rejected());
            return;
        }
        ControllerCommand c = record.command();
        if (c.kind() == CommandKind.ROLLBACK_TABLE) {
            ctx.output(ROLLBACKS, record);
            return;
        }
        ActiveCommands before = active.value() == null ? start : active.value();
        ActiveCommands next;
        try {
            next = before.apply(c);
        } catch (IllegalArgumentException e) {
            LOG.warn("Command {} rejected: {}", c.commandId(), e.getMessage());
            ctx.output(DEAD_LETTERS, record.reject(e.getMessage(), now));
            return;
        }
        active.update(next);
        out.collect(next);
        String applied = describe(c);
        LOG.info("Command {} applied: {}", c.commandId(), applied);
        ctx.output(EVENTS, acknowledgement(c, applied, next.byScope().size(), now));
    }

    /** The {@code COMMAND_APPLIED} event of {@code c}. */
    public static ControllerEvent acknowledgement(ControllerCommand c, String applied, int activeCommands, long now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("commandId", c.commandId());
        details.put("kind", c.kind().name());
        details.put("scope", c.scope());
        details.put("applied", applied);
        details.put("activeCommands", activeCommands);
        return ControllerEvent.of(ControllerEventType.COMMAND_APPLIED, now, details);
    }

    /** What a state-setting command does, in words. */
    static String describe(ControllerCommand c) {
        return switch (c.kind()) {
            case PIN_MODEL -> c.servers().isEmpty() ? "model " + c.model() + " unpinned"
                    : "model " + c.model() + " pinned to " + c.servers();
            case DRAIN_SERVER -> "server " + c.server() + " drained: no new stages";
            case UNDRAIN_SERVER -> "server " + c.server() + " undrained";
            case FREEZE -> "re-optimisation frozen: drift is recorded, not solved, until UNFREEZE";
            case UNFREEZE -> "re-optimisation resumed";
            case TENANT_RULE -> c.servers().isEmpty() ? "tenant rule of " + c.tenant() + " removed"
                    : "tenant " + c.tenant() + " owns " + c.servers() + ", maximum share " + c.maxShare();
            case ROLLBACK_TABLE -> "rollback to table version " + c.tableVersion();
        };
    }
}
