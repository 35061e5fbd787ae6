package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A value of the compacted {@code model-catalog} topic (key: {@link #model()}): the DAG of one model.
 * A newer entry for the same model replaces the older one; a Kafka tombstone (null value) removes the model.
 *
 * @param schemaVersion {@link SchemaVersions#CURRENT}
 * @param model         the model (job class) name, not blank; also the Kafka key
 * @param dag           its DAG (tasks with compute cost, edges with bytes)
 * @param sizeBytes     optional weights of the model in bytes, finite and {@code >= 0} when present; spread over the
 *                      DAG's tasks in proportion to their ops unless the tasks carry their own {@code sizeBytes}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"schemaVersion", "model", "dag", "sizeBytes"})
public record ModelCatalogEntry(
        @JsonProperty(required = true) int schemaVersion,
        @JsonProperty(required = true) String model,
        @JsonProperty(required = true) CatalogDag dag,
        Double sizeBytes) implements TopicRecord {

    public ModelCatalogEntry {
        Fields.requireVersion(schemaVersion);
        Fields.requireText("model", model);
        Fields.requirePresent("dag", dag);
        if (sizeBytes != null) {
            Fields.requireFiniteNonNegative("sizeBytes", sizeBytes);
        }
    }

    /** An entry without {@code sizeBytes}. */
    public ModelCatalogEntry(int schemaVersion, String model, CatalogDag dag) {
        this(schemaVersion, model, dag, null);
    }

    public static ModelCatalogEntry of(String model, CatalogDag dag) {
        return new ModelCatalogEntry(SchemaVersions.CURRENT, model, dag);
    }

    /** An entry whose model weighs {@code sizeBytes} (null: not given). */
    public static ModelCatalogEntry of(String model, CatalogDag dag, Double sizeBytes) {
        return new ModelCatalogEntry(SchemaVersions.CURRENT, model, dag, sizeBytes);
    }

    @Override
    public String key() {
        return model;
    }
}
