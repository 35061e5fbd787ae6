package dev.nona.controller.loop;

import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.command.CommandFunction;
import dev.nona.controller.command.CommandRecord;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;

/**
 * The control loop's share of the operator's commands, in its keyed state: the commands in force (for FREEZE and
 * the drained servers), the last {@link #KEPT_TABLES} published tables (for ROLLBACK_TABLE) and the last rollback
 * applied (a rollback replayed after a restore is not done twice).
 *
 * <p>A rollback to version $k$ publishes the table of version $k$ again, as the next version, with a
 * {@code TABLE_ROLLED_BACK} event (details {@code command}, {@code restoredVersion}, {@code tableVersion}) and the
 * command's {@code COMMAND_APPLIED}; a version not among the kept ones is a dead letter with the versions kept.
 */
final class OperatorControl {
    /** Published tables kept for an operator's rollback. */
    static final int KEPT_TABLES = 8;

    private final ValueState<ActiveCommands> commands;
    private final MapState<Long, ControllerTable> kept;
    private final ValueState<String> lastRollback;
    private final ActiveCommands start;

    /**
     * @param commands     the commands in force ({@code operator-commands})
     * @param kept         the last published tables by version ({@code kept-tables})
     * @param lastRollback the command id of the last rollback applied ({@code last-rollback})
     */
    OperatorControl(ValueState<ActiveCommands> commands, MapState<Long, ControllerTable> kept,
            ValueState<String> lastRollback) {
        this(commands, kept, lastRollback, ActiveCommands.NONE);
    }

    /**
     * @param start the commands in force at a fresh start (read before the job was submitted), in force until the
     *              state holds commands of its own
     */
    OperatorControl(ValueState<ActiveCommands> commands, MapState<Long, ControllerTable> kept,
            ValueState<String> lastRollback, ActiveCommands start) {
        this.start = Objects.requireNonNull(start, "commands in force at start");
        this.commands = Objects.requireNonNull(commands, "operator commands state");
        this.kept = Objects.requireNonNull(kept, "kept tables state");
        this.lastRollback = Objects.requireNonNull(lastRollback, "last rollback state");
    }

    /** The commands in force: the state's, or those in force at start before the first. */
    ActiveCommands commands() throws Exception {
        ActiveCommands c = commands.value();
        return c == null ? start : c;
    }

    /**
     * Holds {@code next} if newer than the state's; returns whether it did. The first always is: the command
     * operator continues from the commands in force at start, or re-reads the topic when there were none.
     */
    boolean update(ActiveCommands next) throws Exception {
        ActiveCommands held = commands.value();
        if (held != null && next.sequence() <= held.sequence()) {
            return false;
        }
        commands.update(next);
        return true;
    }

    boolean frozen() throws Exception {
        return commands().frozen();
    }

    /** Keeps a published table, forgetting the oldest beyond {@link #KEPT_TABLES}. */
    void keep(ControllerTable table) throws Exception {
        kept.put(table.version(), table);
        List<Long> versions = new ArrayList<>();
        kept.keys().forEach(versions::add);
        versions.sort(null);
        for (int i = 0; i < versions.size() - KEPT_TABLES; i++) {
            kept.remove(versions.get(i));
        }
    }

    /** What an operator's rollback does. */
    record Rollback(ControllerTable publish, List<ControllerEvent> events, DeadLetter rejected) {}

    /**
     * The rollback {@code record} asks for, with {@code current} the table in force: the table to publish and its
     * events, a dead letter, or nothing at all (already applied); the table is published as {@code lastVersion} + 1.
     */
    Rollback rollback(CommandRecord record, ControllerTable current, long lastVersion, long now) throws Exception {
        ControllerCommand c = record.command();
        if (c.commandId().equals(lastRollback.value())) {
            return new Rollback(null, List.of(), null); // replayed after a restore: done already
        }
        long k = c.tableVersion();
        ControllerTable target = kept.get(k);
        if (target == null) {
            TreeSet<Long> versions = new TreeSet<>();
            kept.keys().forEach(versions::add);
            return new Rollback(null, List.of(), record.reject("table version " + k + " is not among the last "
                    + KEPT_TABLES + " published, which the controller keeps: " + versions, now));
        }
        lastRollback.update(c.commandId());
        long version = lastVersion + 1;
        String cause = "operator rollback to table v" + k + " (command " + c.commandId() + ")";
        ControllerTable restored = target.republished(version, now, cause);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("cause", cause);
        details.put("command", c.commandId());
        if (current != null) {
            details.put("fromVersion", current.version());
        }
        details.put("restoredVersion", k);
        details.put("tableVersion", version);
        return new Rollback(restored, List.of(ControllerEvent.of(ControllerEventType.TABLE_ROLLED_BACK, now, details),
                CommandFunction.acknowledgement(c, "table v" + k + " published again as v" + version,
                        commands().byScope().size(), now)), null);
    }
}
