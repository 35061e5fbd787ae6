package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A value of {@code placement-decisions} (key: {@link #requestId()}): where each stage of one request runs.
 *
 * @param schemaVersion       {@link SchemaVersions#CURRENT}
 * @param requestId           the request's id, not blank; also the Kafka key
 * @param model               the request's model, not blank
 * @param tenant              the request's tenant, not blank
 * @param tableVersion        version of the placement table the decision was sampled from, {@code >= 0}
 * @param fallback            true when the table was the safe fallback table (no congestion-aware distribution)
 * @param stages              every original task of the model with its target server, at least one (copied)
 * @param predictedJctSeconds the cost model's predicted job completion time $\tau_j$ in seconds, finite and {@code >= 0}
 * @param eventTime           the request's event time, epoch milliseconds, {@code >= 0}
 */
@JsonPropertyOrder({"schemaVersion", "requestId", "model", "tenant", "tableVersion", "fallback", "stages",
        "predictedJctSeconds", "eventTime"})
public record PlacementDecision(
        @JsonProperty(required = true) int schemaVersion,
        @JsonProperty(required = true) String requestId,
        @JsonProperty(required = true) String model,
        @JsonProperty(required = true) String tenant,
        @JsonProperty(required = true) long tableVersion,
        @JsonProperty(required = true) boolean fallback,
        @JsonProperty(required = true) List<StageAssignment> stages,
        @JsonProperty(required = true) double predictedJctSeconds,
        @JsonProperty(required = true) long eventTime) implements TopicRecord {

    public PlacementDecision {
        Fields.requireVersion(schemaVersion);
        Fields.requireText("requestId", requestId);
        Fields.requireText("model", model);
        Fields.requireText("tenant", tenant);
        Fields.requireNonNegative("tableVersion", tableVersion);
        stages = Fields.copyElements("stages", stages);
        if (stages.isEmpty()) {
            throw new InvalidRecordException("field 'stages' ([]) must hold at least one stage");
        }
        Fields.requireFiniteNonNegative("predictedJctSeconds", predictedJctSeconds);
        Fields.requireNonNegative("eventTime", eventTime);
    }

    public static PlacementDecision of(String requestId, String model, String tenant, long tableVersion,
            boolean fallback, List<StageAssignment> stages, double predictedJctSeconds, long eventTime) {
        return new PlacementDecision(SchemaVersions.CURRENT, requestId, model, tenant, tableVersion, fallback, stages,
                predictedJctSeconds, eventTime);
    }

    @Override
    public String key() {
        return requestId;
    }
}
