package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * Why a decision is what it is (optional field {@code explanation} of {@link PlacementDecision}).
 *
 * @param parts             one per server the request uses, in the order of their first stage, at least one (copied)
 * @param choices           per subgraph of the model's table, in chain order, the index of the triplet drawn among
 *                          that subgraph's choices in the table ({@code placement-tables}); empty for a local
 *                          (fallback) placement (copied)
 * @param choiceProbability the product of those triplets' probabilities $\theta$ in the table, in (0, 1]; 1 for a
 *                          local placement
 * @param tableJctSeconds   $\tau$: the table's predicted JCT $\tau_j$ of the model (a local placement: the DAG's
 *                          operations over the chosen server's rate), finite and {@code >= 0}
 * @param waitSeconds       the largest {@code predictedBacklogSeconds} among the parts, finite and {@code >= 0}; the
 *                          decision's {@code predictedJctSeconds} is {@code tableJctSeconds + waitSeconds}
 *                          (the controller rounds it to microseconds)
 */
@JsonPropertyOrder({"parts", "choices", "choiceProbability", "tableJctSeconds", "waitSeconds"})
public record DecisionExplanation(
        @JsonProperty(required = true) List<DecisionPart> parts,
        @JsonProperty(required = true) List<Integer> choices,
        @JsonProperty(required = true) double choiceProbability,
        @JsonProperty(required = true) double tableJctSeconds,
        @JsonProperty(required = true) double waitSeconds) {

    public DecisionExplanation {
        parts = Fields.copyElements("parts", parts);
        if (parts.isEmpty()) {
            throw new InvalidRecordException("field 'parts' ([]) must hold at least one part");
        }
        choices = Fields.copyElements("choices", choices);
        for (int i = 0; i < choices.size(); i++) {
            if (choices.get(i) < 0) {
                throw new InvalidRecordException("field 'choices[" + i + "]' (" + choices.get(i) + ") must be >= 0");
            }
        }
        if (!(choiceProbability > 0 && choiceProbability <= 1)) {
            throw new InvalidRecordException("field 'choiceProbability' (" + choiceProbability + ") must be in (0, 1]");
        }
        Fields.requireFiniteNonNegative("tableJctSeconds", tableJctSeconds);
        Fields.requireFiniteNonNegative("waitSeconds", waitSeconds);
    }

    /** Whether every part names its tasks (the compact form). */
    public boolean namesTasks() {
        for (DecisionPart p : parts) {
            if (p.tasks() == null) {
                return false;
            }
        }
        return true;
    }
}
