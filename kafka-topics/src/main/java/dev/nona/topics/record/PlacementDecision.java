package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
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
 * @param stages              every original task of the model with its target server, at least one (copied, unless
 *                            it is an immutable {@link StageAssignments}); absent
 *                            (null) in the compact form, where {@code explanation.parts[].tasks} carry the mapping
 *                            (use {@link #placedStages()} to read either form)
 * @param predictedJctSeconds the predicted job completion time of this request in seconds, finite and {@code >= 0}:
 *                            with an explanation, its {@code tableJctSeconds + waitSeconds} rounded to
 *                            microseconds (the table's $\tau_j$ plus the largest predicted backlog among the
 *                            request's servers); without one (older records), the cost model's $\tau_j$ of the model
 * @param eventTime           the request's event time, epoch milliseconds, {@code >= 0}
 * @param explanation         optional: why, per part (server, warm, predicted backlog, target met), the triplets
 *                            drawn and their probability; required when {@code stages} is absent, and then every part
 *                            names its tasks
 */
@JsonPropertyOrder({"schemaVersion", "requestId", "model", "tenant", "tableVersion", "fallback", "stages",
        "predictedJctSeconds", "eventTime", "explanation"})
public record PlacementDecision(
        @JsonProperty(required = true) int schemaVersion,
        @JsonProperty(required = true) String requestId,
        @JsonProperty(required = true) String model,
        @JsonProperty(required = true) String tenant,
        @JsonProperty(required = true) long tableVersion,
        @JsonProperty(required = true) boolean fallback,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<StageAssignment> stages,
        @JsonProperty(required = true) double predictedJctSeconds,
        @JsonProperty(required = true) long eventTime,
        @JsonInclude(JsonInclude.Include.NON_NULL) DecisionExplanation explanation) implements TopicRecord {

    public PlacementDecision {
        Fields.requireVersion(schemaVersion);
        Fields.requireText("requestId", requestId);
        Fields.requireText("model", model);
        Fields.requireText("tenant", tenant);
        Fields.requireNonNegative("tableVersion", tableVersion);
        if (stages != null || explanation == null || !explanation.namesTasks()) {
            if (!(stages instanceof StageAssignments)) { // immutable, checked when built
                stages = Fields.copyElements("stages", stages);
            }
            if (stages.isEmpty()) {
                throw new InvalidRecordException("field 'stages' ([]) must hold at least one stage");
            }
        }
        Fields.requireFiniteNonNegative("predictedJctSeconds", predictedJctSeconds);
        Fields.requireNonNegative("eventTime", eventTime);
    }

    /** A decision of the current schema version without an explanation (as written before explanations). */
    public PlacementDecision(int schemaVersion, String requestId, String model, String tenant, long tableVersion,
            boolean fallback, List<StageAssignment> stages, double predictedJctSeconds, long eventTime) {
        this(schemaVersion, requestId, model, tenant, tableVersion, fallback, stages, predictedJctSeconds, eventTime,
                null);
    }

    public static PlacementDecision of(String requestId, String model, String tenant, long tableVersion,
            boolean fallback, List<StageAssignment> stages, double predictedJctSeconds, long eventTime) {
        return new PlacementDecision(SchemaVersions.CURRENT, requestId, model, tenant, tableVersion, fallback, stages,
                predictedJctSeconds, eventTime, null);
    }

    /** A decision with its explanation; {@code stages} null for the compact form. */
    public static PlacementDecision of(String requestId, String model, String tenant, long tableVersion,
            boolean fallback, List<StageAssignment> stages, double predictedJctSeconds, long eventTime,
            DecisionExplanation explanation) {
        return new PlacementDecision(SchemaVersions.CURRENT, requestId, model, tenant, tableVersion, fallback, stages,
                predictedJctSeconds, eventTime, explanation);
    }

    /** Whether this is the compact form: no {@code stages}, the parts name their tasks. */
    public boolean compact() {
        return stages == null;
    }

    /**
     * The cost model's predicted JCT $\tau_j$ of the decision's table for its model: the explanation's
     * {@code tableJctSeconds}, or, in a decision without an explanation (written before explanations existed),
     * {@code predictedJctSeconds}, which was $\tau_j$ then. Calibration compares observed JCTs with this, not with the
     * request's own prediction (which adds the predicted wait of its parts).
     */
    public double tableJctSeconds() {
        return explanation == null ? predictedJctSeconds : explanation.tableJctSeconds();
    }

    /**
     * Every stage with its server, in either form: {@link #stages()} when present, else the explanation's parts'
     * tasks (part by part; allocates).
     */
    public List<StageAssignment> placedStages() {
        if (stages != null) {
            return stages;
        }
        List<StageAssignment> out = new ArrayList<>();
        for (DecisionPart p : explanation.parts()) {
            for (String task : p.tasks()) {
                out.add(new StageAssignment(task, p.server()));
            }
        }
        return out;
    }

    @Override
    public String key() {
        return requestId;
    }
}
