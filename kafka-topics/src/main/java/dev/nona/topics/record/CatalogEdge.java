package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A data dependency of a catalogued model DAG (policy-model's {@code Edge} on the wire).
 *
 * @param from  producer task id, not blank
 * @param to    consumer task id, not blank
 * @param bytes bytes sent when the endpoints run on different servers, finite and {@code >= 0}
 */
public record CatalogEdge(
        @JsonProperty(required = true) String from,
        @JsonProperty(required = true) String to,
        @JsonProperty(required = true) double bytes) {

    public CatalogEdge {
        Fields.requireText("from", from);
        Fields.requireText("to", to);
        Fields.requireFiniteNonNegative("bytes", bytes);
    }
}
