package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How a placed request ended, as its executor reports it in a {@link PlacementOutcome}. */
public enum OutcomeStatus {
    /** Every part ran and the request's result was delivered. */
    @JsonProperty("ok") OK,
    /** A part failed (the executor's error); the request has no result. */
    @JsonProperty("failed") FAILED,
    /** The request ran past the executor's deadline and was abandoned. */
    @JsonProperty("timeout") TIMEOUT
}
