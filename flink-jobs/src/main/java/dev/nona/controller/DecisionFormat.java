package dev.nona.controller;

import java.util.Locale;

/**
 * How the controller writes each decision on {@code placement-decisions} (config key {@code decisions.format}).
 *
 * <ul>
 *   <li>{@link #FULL} (the default): {@code stages} lists every task with its server, and {@code explanation} says
 *       why, per part (one per server the request uses).</li>
 *   <li>{@link #COMPACT}: no {@code stages}; each part of the {@code explanation} names its tasks
 *       ({@code parts[].tasks}), which carries the same mapping in fewer bytes. Readers use
 *       {@code PlacementDecision.placedStages()} for either form.</li>
 * </ul>
 */
public enum DecisionFormat {
    FULL("full"),
    COMPACT("compact");

    private final String key;

    DecisionFormat(String key) {
        this.key = key;
    }

    /** The value as written in the configuration, e.g. {@code full}. */
    public String key() {
        return key;
    }

    /** Parses {@code full} or {@code compact}; the error names {@code field} and the value. */
    public static DecisionFormat parse(String field, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (DecisionFormat f : values()) {
            if (f.key.equals(v)) {
                return f;
            }
        }
        throw new IllegalArgumentException(field + " (" + value + ") must be full or compact");
    }
}
