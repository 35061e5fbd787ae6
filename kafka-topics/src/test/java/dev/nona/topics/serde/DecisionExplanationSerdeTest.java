package dev.nona.topics.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.Topics;
import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The optional {@code explanation} of a decision and its compact form: round trips and records written before. */
final class DecisionExplanationSerdeTest {
    private static final JsonSerde<PlacementDecision> SERDE = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
    private static final List<StageAssignment> STAGES = List.of(new StageAssignment("a", "s-1"),
            new StageAssignment("b", "s-2"), new StageAssignment("c", "s-1"));

    private static DecisionExplanation explanation(boolean compact) {
        return new DecisionExplanation(List.of(
                new DecisionPart("s-1", 2, compact ? List.of("a", "c") : null, true, 0.25, 1, true),
                new DecisionPart("s-2", 1, compact ? List.of("b") : null, false, 0.5, 2, false)),
                List.of(0, 3), 0.375, 0.0123, 0.5);
    }

    @Test
    void fullForm_roundTrips_withStagesAndExplanation() {
        PlacementDecision d = PlacementDecision.of("r-1", "resnet50", "acme", 7, false, STAGES, 0.5123,
                1_700_000_000_000L, explanation(false));
        String json = new String(SERDE.serialize(d), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"schemaVersion\":1,\"requestId\":\"r-1\",\"model\":\"resnet50\",\"tenant\":\"acme\","
                + "\"tableVersion\":7,\"fallback\":false,\"stages\":[{\"task\":\"a\",\"server\":\"s-1\"},"
                + "{\"task\":\"b\",\"server\":\"s-2\"},{\"task\":\"c\",\"server\":\"s-1\"}],\"predictedJctSeconds\":0.5123,"
                + "\"eventTime\":1700000000000,\"explanation\":{\"parts\":["
                + "{\"server\":\"s-1\",\"stages\":2,\"warm\":true,\"predictedBacklogSeconds\":0.25,\"ongoingRequests\":1,\"targetMet\":true},"
                + "{\"server\":\"s-2\",\"stages\":1,\"warm\":false,\"predictedBacklogSeconds\":0.5,\"ongoingRequests\":2,\"targetMet\":false}],"
                + "\"choices\":[0,3],\"choiceProbability\":0.375,\"tableJctSeconds\":0.0123,\"waitSeconds\":0.5}}");
        PlacementDecision back = SERDE.parse(json.getBytes(StandardCharsets.UTF_8)).value();
        assertThat(back).isEqualTo(d);
        assertThat(back.compact()).isFalse();
        assertThat(back.placedStages()).isEqualTo(STAGES);
    }

    @Test
    void compactForm_omitsStages_partsCarryTheMapping() {
        PlacementDecision d = PlacementDecision.of("r-1", "resnet50", "acme", 7, false, null, 0.5123,
                1_700_000_000_000L, explanation(true));
        String json = new String(SERDE.serialize(d), StandardCharsets.UTF_8);
        assertThat(json).doesNotContain("\"stages\":[").contains("\"tasks\":[\"a\",\"c\"]");
        PlacementDecision back = SERDE.parse(json.getBytes(StandardCharsets.UTF_8)).value();
        assertThat(back).isEqualTo(d);
        assertThat(back.compact()).isTrue();
        assertThat(back.placedStages()).containsExactlyInAnyOrderElementsOf(STAGES);
        assertThat(json.length()).isLessThan(new String(SERDE.serialize(PlacementDecision.of("r-1", "resnet50", "acme",
                7, false, STAGES, 0.5123, 1_700_000_000_000L, explanation(false))), StandardCharsets.UTF_8).length());
    }

    @Test
    void recordWrittenBeforeExplanations_stillParses_andIsWrittenBackTheSame() {
        String old = "{\"schemaVersion\":1,\"requestId\":\"r-1\",\"model\":\"resnet50\",\"tenant\":\"acme\",\"tableVersion\":7,"
                + "\"fallback\":false,\"stages\":[{\"task\":\"a\",\"server\":\"s-1\"},{\"task\":\"b\",\"server\":\"s-2\"}],"
                + "\"predictedJctSeconds\":0.0123,\"eventTime\":1700000000000}";
        Parsed<PlacementDecision> parsed = SERDE.parse(old.getBytes(StandardCharsets.UTF_8));
        assertThat(parsed.ok()).as(String.valueOf(parsed)).isTrue();
        PlacementDecision d = parsed.value();
        assertThat(d.explanation()).isNull();
        assertThat(d.placedStages()).hasSize(2);
        assertThat(new String(SERDE.serialize(d), StandardCharsets.UTF_8)).isEqualTo(old);
    }

    @Test
    void noStages_withoutTaskNamingParts_isADeadLetterNamingTheField() {
        String json = "{\"schemaVersion\":1,\"requestId\":\"r-1\",\"model\":\"m\",\"tenant\":\"t\",\"tableVersion\":7,"
                + "\"fallback\":false,\"predictedJctSeconds\":0.5,\"eventTime\":1,\"explanation\":{\"parts\":["
                + "{\"server\":\"s-1\",\"stages\":1,\"warm\":true,\"predictedBacklogSeconds\":0.0,\"ongoingRequests\":0,"
                + "\"targetMet\":true}],\"choices\":[],\"choiceProbability\":1.0,\"tableJctSeconds\":0.5,\"waitSeconds\":0.0}}";
        Parsed<PlacementDecision> parsed = SERDE.parse(json.getBytes(StandardCharsets.UTF_8));
        assertThat(parsed.ok()).isFalse();
        assertThat(parsed.reason()).contains("stages");
    }

    @Test
    void part_tasksNotMatchingItsStageCount_isRejectedNamingTheField() {
        String json = "{\"schemaVersion\":1,\"requestId\":\"r-1\",\"model\":\"m\",\"tenant\":\"t\",\"tableVersion\":7,"
                + "\"fallback\":false,\"predictedJctSeconds\":0.5,\"eventTime\":1,\"explanation\":{\"parts\":["
                + "{\"server\":\"s-1\",\"stages\":2,\"tasks\":[\"a\"],\"warm\":true,\"predictedBacklogSeconds\":0.0,"
                + "\"ongoingRequests\":0,\"targetMet\":true}],\"choices\":[],\"choiceProbability\":1.0,"
                + "\"tableJctSeconds\":0.5,\"waitSeconds\":0.0}}";
        Parsed<PlacementDecision> parsed = SERDE.parse(json.getBytes(StandardCharsets.UTF_8));
        assertThat(parsed.ok()).isFalse();
        assertThat(parsed.reason()).contains("explanation.parts[0].tasks").contains("'stages' (2)");
    }
}
