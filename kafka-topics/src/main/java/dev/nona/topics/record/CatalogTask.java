package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A task of a catalogued model DAG (policy-model's {@code Task} on the wire).
 *
 * @param id  unique id within its DAG, not blank
 * @param ops       compute cost in operations (Nona's $p^t$), finite and {@code >= 0}
 * @param sizeBytes optional weights of the task in bytes, finite and {@code >= 0} when present (a DAG gives them for
 *                  every task or for none)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"id", "ops", "sizeBytes"})
public record CatalogTask(
        @JsonProperty(required = true) String id,
        @JsonProperty(required = true) double ops,
        Double sizeBytes) {

    public CatalogTask {
        Fields.requireText("id", id);
        Fields.requireFiniteNonNegative("ops", ops);
        if (sizeBytes != null) {
            Fields.requireFiniteNonNegative("sizeBytes", sizeBytes);
        }
    }

    /** A task without {@code sizeBytes}. */
    public CatalogTask(String id, double ops) {
        this(id, ops, null);
    }
}
