package dev.nona.controller.loop;

/**
 * The causes pending for the next re-optimisation, joined with {@code "; "} and bounded: past {@link #MAX_CHARS}
 * characters further causes are only counted ({@code "; ... and 12 more"}), so a flapping cluster of thousands of
 * servers cannot grow the drift state or the events that carry the cause.
 */
final class Causes {
    /** The most characters a joined cause keeps, besides the count of those left out. */
    static final int MAX_CHARS = 1_000;
    private static final String MORE = "; ... and ";

    private Causes() {}

    /** {@code pending} (null: none) with {@code cause} appended unless it is there already, bounded. */
    static String append(String pending, String cause) {
        if (pending == null) {
            return cause.length() <= MAX_CHARS ? cause : cause.substring(0, MAX_CHARS) + "...";
        }
        if (pending.equals(cause) || pending.startsWith(cause + "; ") || pending.endsWith("; " + cause)
                || pending.contains("; " + cause + "; ")) {
            return pending;
        }
        int more = pending.lastIndexOf(MORE);
        if (more >= 0 && pending.endsWith(" more")) {
            long count = Long.parseLong(pending.substring(more + MORE.length(), pending.length() - " more".length()));
            return pending.substring(0, more) + MORE + (count + 1) + " more";
        }
        if (pending.length() + 2 + cause.length() <= MAX_CHARS) {
            return pending + "; " + cause;
        }
        return pending + MORE + 1 + " more";
    }
}
