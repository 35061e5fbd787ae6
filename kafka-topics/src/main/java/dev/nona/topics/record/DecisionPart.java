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
 * @param serverClass             optional: the class of the server by its latest telemetry (when it gives one), not
 *                                blank
 * @param coldStart               optional (when the servers give their class or memory): whether a cold start was
 *                                predicted, the server not holding the model
 * @param coldStartSeconds        optional (with {@code coldStart}): the predicted load, seconds, finite and
 *                                {@code >= 0} (0 when warm, or when the controller does not model loads)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"server", "stages", "tasks", "warm", "predictedBacklogSeconds", "ongoingRequests", "targetMet",
        "serverClass", "coldStart", "coldStartSeconds"})
public record DecisionPart(
        @JsonProperty(required = true) String server,
        @JsonProperty(required = true) int stages,
        List<String> tasks,
        @JsonProperty(required = true) boolean warm,
        @JsonProperty(required = true) double predictedBacklogSeconds,
        @JsonProperty(required = true) int ongoingRequests,
        @JsonProperty(required = true) boolean targetMet,
        String serverClass,
        Boolean coldStart,
        Double coldStartSeconds) {

    /** A part without class or cold-start facts (servers that give neither class nor memory). */
    public DecisionPart(String server, int stages, List<String> tasks, boolean warm, double predictedBacklogSeconds,
            int ongoingRequests, boolean targetMet) {
        this(server, stages, tasks, warm, predictedBacklogSeconds, ongoingRequests, targetMet, null, null, null);
    }

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
        if (serverClass != null) {
            Fields.requireText("serverClass", serverClass);
        }
        if (coldStartSeconds != null) {
            Fields.requireFiniteNonNegative("coldStartSeconds", coldStartSeconds);
        }
    }
}
