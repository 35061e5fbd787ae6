package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A value of {@code inference-requests} (key: {@link #id()}): one inference request naming its model (job class).
 *
 * @param schemaVersion {@link SchemaVersions#CURRENT}
 * @param id            request id, not blank; also the Kafka key
 * @param model         the model (job class) it runs, not blank
 * @param tenant        who sent it, not blank
 * @param eventTime     when it was issued, epoch milliseconds, {@code >= 0}
 * @param payloadBytes  optional size of the request's input in bytes, {@code >= 0} when present
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"schemaVersion", "id", "model", "tenant", "eventTime", "payloadBytes"})
public record InferenceRequest(
        @JsonProperty(required = true) int schemaVersion,
        @JsonProperty(required = true) String id,
        @JsonProperty(required = true) String model,
        @JsonProperty(required = true) String tenant,
        @JsonProperty(required = true) long eventTime,
        Long payloadBytes) implements TopicRecord {

    public InferenceRequest {
        Fields.requireVersion(schemaVersion);
        Fields.requireText("id", id);
        Fields.requireText("model", model);
        Fields.requireText("tenant", tenant);
        Fields.requireNonNegative("eventTime", eventTime);
        if (payloadBytes != null) {
            Fields.requireNonNegative("payloadBytes", payloadBytes);
        }
    }

    /** A request in the current schema version; {@code payloadBytes} may be null. */
    public static InferenceRequest of(String id, String model, String tenant, long eventTime, Long payloadBytes) {
        return new InferenceRequest(SchemaVersions.CURRENT, id, model, tenant, eventTime, payloadBytes);
    }

    @Override
    public String key() {
        return id;
    }
}
