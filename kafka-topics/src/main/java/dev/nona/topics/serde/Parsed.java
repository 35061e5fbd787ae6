package dev.nona.topics.serde;

import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * The outcome of parsing one record: either the value, or the reason it was rejected. Parsing never throws on bad
 * input, so a stream job can route rejections to {@code dead-letters} with one branch.
 *
 * @param <T> the record type
 */
public final class Parsed<T> {
    private final T value;
    private final String reason;

    private Parsed(T value, String reason) {
        this.value = value;
        this.reason = reason;
    }

    public static <T> Parsed<T> ok(T value) {
        return new Parsed<>(Objects.requireNonNull(value, "parsed value"), null);
    }

    public static <T> Parsed<T> rejected(String reason) {
        Objects.requireNonNull(reason, "rejection reason");
        return new Parsed<>(null, reason);
    }

    /** True when the record was valid. */
    public boolean ok() {
        return reason == null;
    }

    /** The record; only when {@link #ok()}. */
    public T value() {
        if (reason != null) {
            throw new NoSuchElementException("record was rejected: " + reason);
        }
        return value;
    }

    /** Why the record was rejected; only when not {@link #ok()}. */
    public String reason() {
        if (reason == null) {
            throw new IllegalStateException("record was accepted, it has no rejection reason");
        }
        return reason;
    }

    @Override
    public String toString() {
        return reason == null ? "Parsed.ok(" + value + ")" : "Parsed.rejected(" + reason + ")";
    }
}
