package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A value of the compacted {@code placement-tables} topic (key: {@link #tableId()}): one versioned placement table
 * with the inputs it was solved for, for audit and warm restart.
 *
 * <p>The table itself is carried as JSON text ({@link #tableJson()}), written as a nested JSON object under
 * {@code "table"}, so that this module does not depend on policy-model's {@code PlacementTable} (the controller
 * converts it). Compaction keeps the newest value per {@code tableId}: use one id per controller for warm restart,
 * or one id per version to keep every table.
 *
 * @param schemaVersion {@link SchemaVersions#CURRENT}
 * @param tableId       the table's id, not blank; also the Kafka key
 * @param version       the table version decisions refer to, {@code >= 0}
 * @param createdAt     when the table was solved, epoch milliseconds, {@code >= 0}
 * @param tableJson     the table as a JSON object (checked by parsing it)
 */
@JsonPropertyOrder({"schemaVersion", "tableId", "version", "createdAt", "table"})
public record PlacementTableRecord(
        int schemaVersion,
        String tableId,
        long version,
        long createdAt,
        @JsonProperty("table") @JsonRawValue String tableJson) implements TopicRecord {

    private static final ObjectMapper CHECKER = new ObjectMapper();

    public PlacementTableRecord {
        Fields.requireVersion(schemaVersion);
        Fields.requireText("tableId", tableId);
        Fields.requireNonNegative("version", version);
        Fields.requireNonNegative("createdAt", createdAt);
        Fields.requirePresent("table", tableJson);
        requireObject(tableJson);
    }

    public static PlacementTableRecord of(String tableId, long version, long createdAt, String tableJson) {
        return new PlacementTableRecord(SchemaVersions.CURRENT, tableId, version, createdAt, tableJson);
    }

    @JsonCreator
    static PlacementTableRecord fromJson(
            @JsonProperty(value = "schemaVersion", required = true) int schemaVersion,
            @JsonProperty(value = "tableId", required = true) String tableId,
            @JsonProperty(value = "version", required = true) long version,
            @JsonProperty(value = "createdAt", required = true) long createdAt,
            @JsonProperty(value = "table", required = true) JsonNode table) {
        Fields.requireVersion(schemaVersion);
        if (table == null || table.isNull()) {
            throw new InvalidRecordException("field 'table' is missing (null)");
        }
        if (!table.isObject()) {
            throw new InvalidRecordException("field 'table' (a JSON " + table.getNodeType() + ") must be a JSON object");
        }
        return new PlacementTableRecord(schemaVersion, tableId, version, createdAt, table.toString());
    }

    private static void requireObject(String json) {
        JsonNode node;
        try {
            node = CHECKER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidRecordException("field 'table' is not valid JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new InvalidRecordException("field 'table' must be a JSON object");
        }
    }

    /** The table as a tree (a fresh copy on each call). */
    public JsonNode tableTree() {
        try {
            return CHECKER.readTree(tableJson);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: tableJson was checked at construction", e);
        }
    }

    @Override
    public String key() {
        return tableId;
    }
}
