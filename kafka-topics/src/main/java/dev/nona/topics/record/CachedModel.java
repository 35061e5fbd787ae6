package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A model held warm in a server's cache.
 *
 * @param model the model's name, not blank
 * @param bytes the memory it takes, {@code >= 0}
 */
public record CachedModel(
        @JsonProperty(required = true) String model,
        @JsonProperty(required = true) long bytes) {

    public CachedModel {
        Fields.requireText("model", model);
        Fields.requireNonNegative("bytes", bytes);
    }
}
