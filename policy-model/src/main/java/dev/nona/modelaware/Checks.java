package dev.nona.modelaware;

import java.util.Objects;

/** Argument checks shared by this package; messages name the role and the value. */
final class Checks {
    private Checks() {}

    static double nonNegative(double value, String role) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(role + " (" + value + ") must be finite and >= 0");
        }
        return value;
    }

    static double positive(double value, String role) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(role + " (" + value + ") must be finite and > 0");
        }
        return value;
    }

    static int positive(int value, String role) {
        if (value <= 0) {
            throw new IllegalArgumentException(role + " (" + value + ") must be > 0");
        }
        return value;
    }

    static String name(String value, String role) {
        Objects.requireNonNull(value, role);
        if (value.isBlank()) {
            throw new IllegalArgumentException(role + " must not be blank");
        }
        return value;
    }
}
