package dev.nona.topics;

/** A topic's {@code cleanup.policy}. */
public enum CleanupPolicy {
    /** Old segments are deleted after the retention time: an event log. */
    DELETE("delete"),
    /** Only the newest value per key is kept: a table. */
    COMPACT("compact");

    private final String config;

    CleanupPolicy(String config) {
        this.config = config;
    }

    /** The value of Kafka's {@code cleanup.policy} topic config. */
    public String config() {
        return config;
    }
}
