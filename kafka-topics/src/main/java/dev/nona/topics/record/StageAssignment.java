package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One stage of a placed request: an original task of the model's DAG and the server that runs it.
 *
 * @param task   the original task id, not blank
 * @param server the target server id, not blank
 */
public record StageAssignment(
        @JsonProperty(required = true) String task,
        @JsonProperty(required = true) String server) {

    public StageAssignment {
        Fields.requireText("task", task);
        Fields.requireText("server", server);
    }
}
