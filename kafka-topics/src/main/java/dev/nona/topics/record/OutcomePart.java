package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One part of an executed request: the stages that ran on one server, as its executor observed them. Times are
 * the server's own clock, so {@code finishedAt >= startedAt} is required; nothing is required across parts (their
 * servers' clocks may differ by a little).
 *
 * @param server         the server that ran the part, not blank
 * @param startedAt      when the server began the part (loading the model first when it started cold), epoch
 *                       milliseconds, {@code >= 0}
 * @param finishedAt     when its last stage finished, epoch milliseconds, {@code >= startedAt}
 * @param cold           whether the server had to load the model first (a cold start)
 * @param tasks          optional: the original task ids of the part (distinct, not blank); when absent, the part
 *                       is every stage the request's decision put on {@code server}
 * @param computeSeconds optional: the seconds the server spent computing the part's stages (excluding the cold
 *                       start and any wait for inputs between stages), finite and {@code >= 0}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"server", "startedAt", "finishedAt", "cold", "tasks", "computeSeconds"})
public record OutcomePart(
        @JsonProperty(required = true) String server,
        @JsonProperty(required = true) long startedAt,
        @JsonProperty(required = true) long finishedAt,
        @JsonProperty(required = true) boolean cold,
        List<String> tasks,
        Double computeSeconds) {

    public OutcomePart {
        Fields.requireText("server", server);
        Fields.requireNonNegative("startedAt", startedAt);
        Fields.requireNonNegative("finishedAt", finishedAt);
        if (finishedAt < startedAt) {
            throw new InvalidRecordException("field 'finishedAt' (" + finishedAt + ") must be >= startedAt (" + startedAt + ")");
        }
        if (tasks != null) {
            tasks = Fields.copyElements("tasks", tasks);
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < tasks.size(); i++) {
                Fields.requireText("tasks[" + i + "]", tasks.get(i));
                if (!seen.add(tasks.get(i))) {
                    throw new InvalidRecordException("field 'tasks[" + i + "]' ('" + tasks.get(i) + "') is listed twice");
                }
            }
        }
        if (computeSeconds != null) {
            Fields.requireFiniteNonNegative("computeSeconds", computeSeconds);
        }
    }

    /** A part with neither tasks nor compute seconds. */
    public static OutcomePart of(String server, long startedAt, long finishedAt, boolean cold) {
        return new OutcomePart(server, startedAt, finishedAt, cold, null, null);
    }
}
