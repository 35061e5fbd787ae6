package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * One part of a decision's {@link DecisionExplanation}: the request's stages on one server, and why that server, as
 * the placement saw it at the pick (before the request was counted).
 *
 * @param server                  the server, not blank
 * @param stages                  how many of the request's stages (original tasks) run there, {@code >= 1}
 * @param tasks                   optional: those stages' task ids (distinct, not blank, {@code stages} of them);
 *                                present in the compact form ({@code decisions.format=compact}), where they replace
 *                                the decision's {@code stages}
 * @param warm                    whether the server held the model by its latest telemetry (else a cold start)
 * @param predictedBacklogSeconds the server's predicted backlog at the pick, seconds of work, finite and {@code >= 0}
 * @param ongoingRequests         the server's predicted requests in flight at the pick, {@code >= 0}
 * @param targetMet               whether those were under {@code placement.target-ongoing-requests}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"server", "stages", "tasks", "warm", "predictedBacklogSeconds", "ongoingRequests", "targetMet"})
public record DecisionPart(
        @JsonProperty(required = true) String server,
        @JsonProperty(required = true) int stages,
        List<String> tasks,
        @JsonProperty(required = true) boolean warm,
        @JsonProperty(required = true) double predictedBacklogSeconds,
        @JsonProperty(required = true) int ongoingRequests,
        @JsonProperty(required = true) boolean targetMet) {

    public DecisionPart {
        Fields.requireText("server", server);
        if (stages < 1) {
            throw new InvalidRecordException("field 'stages' (" + stages + ") must be >= 1");
        }
        if (tasks != null) {
            tasks = Fields.copyElements("tasks", tasks);
            if (tasks.size() != stages) {
                throw new InvalidRecordException("field 'tasks' (" + tasks.size() + " ids) must name 'stages' ("
                        + stages + ") tasks");
            }
            for (int i = 0; i < tasks.size(); i++) {
                Fields.requireText("tasks[" + i + "]", tasks.get(i));
            }
        }
        Fields.requireFiniteNonNegative("predictedBacklogSeconds", predictedBacklogSeconds);
        Fields.requireNonNegative("ongoingRequests", ongoingRequests);
    }
}
