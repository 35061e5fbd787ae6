package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonIgnore;

/** A value written to one of the controller's topics. */
public interface TopicRecord {
    /** The schema version of this value ({@link SchemaVersions#CURRENT} for everything this module builds). */
    int schemaVersion();

    /** The Kafka record key for this value (see docs/design.md, "Topics"), or {@code null} for unkeyed topics. */
    @JsonIgnore
    String key();
}
