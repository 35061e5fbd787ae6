package dev.nona.check;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * Argument checks for every module: NaN-safe (written as {@code !(x > 0)}, so NaN fails), each returning its value,
 * each message naming the role and the value, as in {@code "cluster opsPerSecond (-1.0) must be finite and > 0"}.
 * The forms that take an {@code error} throw the caller's own exception type (a workload's or a DAG's) with the same
 * message; the others throw {@link IllegalArgumentException}. Stateless, thread-safe.
 */
public final class Checks {
    private Checks() {}

    /** {@code value} if finite and {@code > 0}; NaN and infinities fail: "role (value) must be finite and > 0". */
    public static double positive(double value, String role) {
        return positive(value, role, IllegalArgumentException::new);
    }

    /** As {@link #positive(double, String)}, throwing {@code error} of the message. */
    public static double positive(double value, String role, Function<String, ? extends RuntimeException> error) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw error.apply(role + " (" + value + ") must be finite and > 0");
        }
        return value;
    }

    /** {@code value} if longer than zero, else "role (Nms) must be > 0". */
    public static Duration positive(Duration value, String role) {
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(role + " (" + value.toMillis() + "ms) must be > 0");
        }
        return value;
    }

    /** {@code value} if finite and {@code >= 0}; NaN and infinities fail: "role (value) must be finite and >= 0". */
    public static double nonNegative(double value, String role) {
        return nonNegative(value, role, IllegalArgumentException::new);
    }

    /** As {@link #nonNegative(double, String)}, throwing {@code error} of the message. */
    public static double nonNegative(double value, String role, Function<String, ? extends RuntimeException> error) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw error.apply(role + " (" + value + ") must be finite and >= 0");
        }
        return value;
    }

    /** {@code value} if {@code > 0}: "role (value) must be > 0". */
    public static int positive(int value, String role) {
        if (value <= 0) {
            throw new IllegalArgumentException(role + " (" + value + ") must be > 0");
        }
        return value;
    }

    /** {@code value} if {@code >= 1}: "role (value) must be >= 1" (a count, a rate, a timeout in whole units). */
    public static long atLeastOne(long value, String role) {
        if (value < 1) {
            throw new IllegalArgumentException(role + " (" + value + ") must be >= 1");
        }
        return value;
    }

    /** {@code port} if in {@code 0..65535} (0: any free port, or none, as the caller means it). */
    public static int portOrZero(int port, String role) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException(role + " (" + port + ") must be in 0..65535");
        }
        return port;
    }

    /** {@code value} if not null (else a {@link NullPointerException} naming the role) and not blank. */
    public static String notBlank(String value, String role) {
        Objects.requireNonNull(value, role);
        if (value.isBlank()) {
            throw new IllegalArgumentException(role + " must not be blank");
        }
        return value;
    }
}
