package dev.nona.topics.record;

/**
 * A topic record that breaks its schema: the message names the field and the offending value, e.g.
 * {@code "field 'payloadBytes' (-5) must be >= 0"}.
 *
 * <p>It carries no stack trace: it describes bad data, not a bug, and it is created on the hot path
 * of a stream job whenever a malformed record arrives.
 */
public final class InvalidRecordException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidRecordException(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
