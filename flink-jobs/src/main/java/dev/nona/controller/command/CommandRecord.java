package dev.nona.controller.command;

import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.serde.JsonSerde;

/**
 * A record read from {@code controller-commands}: the command with where it came from (for the dead letter it may
 * still become when it cannot be applied), or the dead letter it became when read.
 */
public record CommandRecord(ControllerCommand command, DeadLetter rejected, String topic, int partition, long offset) {
    private static final JsonSerde<ControllerCommand> SERDE =
            new JsonSerde<>(ControllerCommand.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);

    public CommandRecord {
        if ((command == null) == (rejected == null)) {
            throw new IllegalArgumentException("BUG: a command record holds exactly one of command and rejected");
        }
    }

    /** A command read at {@code topic}/{@code partition}/{@code offset}. */
    public static CommandRecord of(ControllerCommand command, String topic, int partition, long offset) {
        return new CommandRecord(command, null, topic, partition, offset);
    }

    /** The command as a dead letter: it was read but cannot be applied, for {@code reason}. */
    public DeadLetter reject(String reason, long now) {
        return DeadLetter.of(SERDE.serialize(command), topic, partition, offset,
                "command '" + command.commandId() + "' (" + command.kind() + "): " + reason, now);
    }
}
