package dev.nona.topics.record;

import java.util.List;

/**
 * Field checks shared by the records' compact constructors. Every failure is an
 * {@link InvalidRecordException} whose message names the field and the value. Checks are NaN-safe.
 */
final class Fields {
    private Fields() {
    }

    static void requireVersion(int schemaVersion) {
        if (schemaVersion != SchemaVersions.CURRENT) {
            throw new InvalidRecordException(
                    "field 'schemaVersion' (" + schemaVersion + ") is not supported (supported: " + SchemaVersions.CURRENT + ")");
        }
    }

    static <T> T requirePresent(String field, T value) {
        if (value == null) {
            throw new InvalidRecordException("field '" + field + "' is missing (null)");
        }
        return value;
    }

    static String requireText(String field, String value) {
        requirePresent(field, value);
        if (value.isBlank()) {
            throw new InvalidRecordException("field '" + field + "' ('" + value + "') must not be blank");
        }
        return value;
    }

    static long requireNonNegative(String field, long value) {
        if (value < 0) {
            throw new InvalidRecordException("field '" + field + "' (" + value + ") must be >= 0");
        }
        return value;
    }

    static int requireNonNegative(String field, int value) {
        if (value < 0) {
            throw new InvalidRecordException("field '" + field + "' (" + value + ") must be >= 0");
        }
        return value;
    }

    static double requireFiniteNonNegative(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new InvalidRecordException("field '" + field + "' (" + value + ") must be finite and >= 0");
        }
        return value;
    }

    static double requireFinitePositive(String field, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new InvalidRecordException("field '" + field + "' (" + value + ") must be finite and > 0");
        }
        return value;
    }

    /** Copies a list, rejecting a missing list or a null element (named {@code field[i]}). */
    static <T> List<T> copyElements(String field, List<T> values) {
        requirePresent(field, values);
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null) {
                throw new InvalidRecordException("field '" + field + "[" + i + "]' is missing (null)");
            }
        }
        return List.copyOf(values);
    }

}
