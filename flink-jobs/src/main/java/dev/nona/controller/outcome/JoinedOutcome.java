package dev.nona.controller.outcome;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.nona.topics.record.PlacementOutcome;
import java.util.Objects;

/** What {@link OutcomeJoin} found for one request id: its decision and outcome, or that one of them never came. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
        @JsonSubTypes.Type(value = JoinedOutcome.Matched.class, name = "matched"),
        @JsonSubTypes.Type(value = JoinedOutcome.Missing.class, name = "missing"),
        @JsonSubTypes.Type(value = JoinedOutcome.Unmatched.class, name = "unmatched")})
public sealed interface JoinedOutcome {
    /** The request's model. */
    String model();

    /** A decision (its summary) and its outcome. */
    record Matched(DecisionSummary decision, PlacementOutcome outcome) implements JoinedOutcome {
        public Matched {
            Objects.requireNonNull(decision, "decision");
            Objects.requireNonNull(outcome, "outcome");
        }

        @Override
        public String model() {
            return decision.model();
        }
    }

    /** A decision that got no outcome within {@code outcomes.max-wait}. */
    record Missing(String requestId, String model) implements JoinedOutcome {
        public Missing {
            Objects.requireNonNull(requestId, "request id");
            Objects.requireNonNull(model, "model");
        }
    }

    /** An outcome whose decision did not come within {@code outcomes.decision-wait}. */
    record Unmatched(String requestId, String model) implements JoinedOutcome {
        public Unmatched {
            Objects.requireNonNull(requestId, "request id");
            Objects.requireNonNull(model, "model");
        }
    }
}
