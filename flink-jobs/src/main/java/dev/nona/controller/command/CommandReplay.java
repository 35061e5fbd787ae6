package dev.nona.controller.command;

import dev.nona.topics.record.CommandKind;
import dev.nona.topics.record.ControllerCommand;

/**
 * The commands in force after reading {@code controller-commands} in order, as the command operator
 * ({@link CommandFunction}) would have applied them: what a fresh start reads up to the end offsets it saw at start,
 * before it places any request. A rollback is not redone (it acted on the tables of the controller that read it,
 * which a fresh start does not have); a command that cannot be applied (a server owned by two tenants) changes
 * nothing, as it did when it was first read. Not thread safe.
 */
public final class CommandReplay {
    private ActiveCommands inForce = ActiveCommands.NONE;
    private int applied;
    private int rollbacks;
    private int refused;

    /** Applies {@code command}, read next. */
    public void read(ControllerCommand command) {
        if (command.kind() == CommandKind.ROLLBACK_TABLE) {
            rollbacks++;
            return;
        }
        try {
            inForce = inForce.apply(command);
            applied++;
        } catch (IllegalArgumentException e) {
            refused++;
        }
    }

    /** A record that did not parse (a dead letter when first read): changes nothing. */
    public void unreadable() {
        refused++;
    }

    /** The commands in force after those read. */
    public ActiveCommands inForce() {
        return inForce;
    }

    /** What was read, in words: e.g. {@code "3 commands in force (5 applied, 1 rollback not redone, 0 refused)"}. */
    public String summary() {
        return inForce.byScope().size() + " command(s) in force (" + applied + " applied, " + rollbacks
                + " rollback(s) not redone, " + refused + " refused)";
    }
}
