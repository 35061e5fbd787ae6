package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A value of the compacted {@code model-catalog} topic (key: {@link #model()}): the DAG of one model.
 * A newer entry for the same model replaces the older one; a Kafka tombstone (null value) removes the model.
 *
 * @param schemaVersion {@link SchemaVersions#CURRENT}
 * @param model         the model (job class) name, not blank; also the Kafka key
 * @param dag           its DAG (tasks with compute cost, edges with bytes)
 */
@JsonPropertyOrder({"schemaVersion", "model", "dag"})
public record ModelCatalogEntry(
        @JsonProperty(required = true) int schemaVersion,
        @JsonProperty(required = true) String model,
        @JsonProperty(required = true) CatalogDag dag) implements TopicRecord {

    public ModelCatalogEntry {
        Fields.requireVersion(schemaVersion);
        Fields.requireText("model", model);
        Fields.requirePresent("dag", dag);
    }

    public static ModelCatalogEntry of(String model, CatalogDag dag) {
        return new ModelCatalogEntry(SchemaVersions.CURRENT, model, dag);
    }

    @Override
    public String key() {
        return model;
    }
}
