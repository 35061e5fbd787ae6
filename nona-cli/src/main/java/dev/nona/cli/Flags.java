package dev.nona.cli;

/** The checks of the verbs' numeric flags, each an error naming the flag as the user typed it and the value. */
final class Flags {
    private Flags() {
    }

    /** {@code value}, when it is at least 1. */
    static long atLeastOne(String flag, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(flag + " (" + value + ") must be >= 1");
        }
        return value;
    }

    /** {@code port}, when it is 0 (any free port, or none, as the flag says) or a port. */
    static int portOrZero(String flag, int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException(flag + " (" + port + ") must be in 0..65535");
        }
        return port;
    }
}
