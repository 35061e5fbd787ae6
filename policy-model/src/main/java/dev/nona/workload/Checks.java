package dev.nona.workload;

/** NaN-safe argument checks whose messages name the field and the value. */
final class Checks {
    private Checks() {}

    static double positive(String field, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new WorkloadException(field + " (" + value + ") must be finite and > 0");
        }
        return value;
    }

    static double nonNegative(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new WorkloadException(field + " (" + value + ") must be finite and >= 0");
        }
        return value;
    }
}
