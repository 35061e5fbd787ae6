package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A value of {@code placement-outcomes} (key: {@link #requestId()}): what happened to one placed request, as the
 * system that executed it reports it (the project's executor twin, or a real serving system: docs/topics.md).
 * The controller joins it with the request's decision by request id.
 *
 * @param schemaVersion      {@link SchemaVersions#CURRENT}
 * @param requestId          the request's id, not blank; also the Kafka key
 * @param model              the request's model, not blank
 * @param tableVersion       version of the table its decision was sampled from (the decision's), {@code >= 0}
 * @param parts              the parts that ran, one per server run (copied); at least one when {@code status} is
 *                           {@code ok}, possibly none when the request failed or timed out before any part ran
 * @param linkBytes          bytes the request sent over the bottleneck link (between its parts), {@code >= 0}
 * @param status             {@code ok}, {@code failed} or {@code timeout}
 * @param completedAt        when the request completed, failed or was abandoned, epoch milliseconds, {@code >= 0}
 * @param observedJctSeconds its job completion time as observed: from its arrival to {@code completedAt}, finite and
 *                           {@code >= 0}
 * @param reason             optional: why it failed or timed out (not blank when present)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"schemaVersion", "requestId", "model", "tableVersion", "parts", "linkBytes", "status",
        "completedAt", "observedJctSeconds", "reason"})
public record PlacementOutcome(
        @JsonProperty(required = true) int schemaVersion,
        @JsonProperty(required = true) String requestId,
        @JsonProperty(required = true) String model,
        @JsonProperty(required = true) long tableVersion,
        @JsonProperty(required = true) List<OutcomePart> parts,
        @JsonProperty(required = true) long linkBytes,
        @JsonProperty(required = true) OutcomeStatus status,
        @JsonProperty(required = true) long completedAt,
        @JsonProperty(required = true) double observedJctSeconds,
        String reason) implements TopicRecord {

    public PlacementOutcome {
        Fields.requireVersion(schemaVersion);
        Fields.requireText("requestId", requestId);
        Fields.requireText("model", model);
        Fields.requireNonNegative("tableVersion", tableVersion);
        parts = Fields.copyElements("parts", parts);
        Fields.requireNonNegative("linkBytes", linkBytes);
        Fields.requirePresent("status", status);
        if (status == OutcomeStatus.OK && parts.isEmpty()) {
            throw new InvalidRecordException("field 'parts' ([]) must hold at least one part when status is 'ok'");
        }
        Fields.requireNonNegative("completedAt", completedAt);
        Fields.requireFiniteNonNegative("observedJctSeconds", observedJctSeconds);
        if (reason != null) {
            Fields.requireText("reason", reason);
        }
    }

    /** A successful outcome. */
    public static PlacementOutcome ok(String requestId, String model, long tableVersion, List<OutcomePart> parts,
            long linkBytes, long completedAt, double observedJctSeconds) {
        return new PlacementOutcome(SchemaVersions.CURRENT, requestId, model, tableVersion, parts, linkBytes,
                OutcomeStatus.OK, completedAt, observedJctSeconds, null);
    }

    /** A failed or timed-out outcome, with the reason. */
    public static PlacementOutcome ended(String requestId, String model, long tableVersion, List<OutcomePart> parts,
            long linkBytes, OutcomeStatus status, long completedAt, double observedJctSeconds, String reason) {
        return new PlacementOutcome(SchemaVersions.CURRENT, requestId, model, tableVersion, parts, linkBytes, status,
                completedAt, observedJctSeconds, reason);
    }

    @Override
    public String key() {
        return requestId;
    }
}
