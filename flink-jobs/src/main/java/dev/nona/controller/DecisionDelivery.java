package dev.nona.controller;

import java.util.Locale;

/**
 * How the controller writes {@code placement-decisions} (config key {@code decisions.delivery}).
 *
 * <ul>
 *   <li>{@link #AT_LEAST_ONCE} (the default): each decision is written as soon as it is placed, without
 *       transactions, so a {@code read_committed} consumer sees it within milliseconds. After a failure the job
 *       replays from its last checkpoint and may write a second decision for a request that already has one; the
 *       contract is that <em>the first decision per {@code requestId} wins</em> (consumers keep the first and drop
 *       later ones, see {@code docs/topics.md}).</li>
 *   <li>{@link #EXACTLY_ONCE}: decisions go out in Kafka transactions committed when a checkpoint completes, so a
 *       {@code read_committed} consumer sees each request's decision exactly once, but only after the checkpoint
 *       that covers it: latency is about the checkpoint interval. Needs checkpointing.</li>
 * </ul>
 */
public enum DecisionDelivery {
    AT_LEAST_ONCE("at-least-once"),
    EXACTLY_ONCE("exactly-once");

    private final String key;

    DecisionDelivery(String key) {
        this.key = key;
    }

    /** The value as written in the configuration, e.g. {@code at-least-once}. */
    public String key() {
        return key;
    }

    /** Parses {@code at-least-once} or {@code exactly-once}; the error names {@code field} and the value. */
    public static DecisionDelivery parse(String field, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (DecisionDelivery d : values()) {
            if (d.key.equals(v)) {
                return d;
            }
        }
        throw new IllegalArgumentException(field + " (" + value + ") must be at-least-once or exactly-once");
    }
}
