package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A task of a catalogued model DAG (policy-model's {@code Task} on the wire).
 *
 * @param id  unique id within its DAG, not blank
 * @param ops compute cost in operations (Nona's $p^t$), finite and {@code >= 0}
 */
public record CatalogTask(
        @JsonProperty(required = true) String id,
        @JsonProperty(required = true) double ops) {

    public CatalogTask {
        Fields.requireText("id", id);
        Fields.requireFiniteNonNegative("ops", ops);
    }
}
