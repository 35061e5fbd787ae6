package dev.nona.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.chaos.Violation.Invariant;
import dev.nona.topics.Topics;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class InvariantCheckerTest {
    private static final long T = 3_000;
    private static final long SEED = 99;

    private final ServerOutages outages = new ServerOutages();
    private final List<Violation> heard = new ArrayList<>();
    private final InvariantChecker checker = new InvariantChecker(SEED, T, outages, heard::add, 0);

    private static PlacementDecision decision(String id, long madeAt, String... servers) {
        List<StageAssignment> stages = new ArrayList<>();
        for (int i = 0; i < servers.length; i++) {
            stages.add(new StageAssignment("t" + i, servers[i]));
        }
        return PlacementDecision.of(id, "m", "tenant", 3, false, stages, 0.01, madeAt);
    }

    private long violations(Invariant i) {
        return checker.counts().get(i.key()).get("violations");
    }

    @Test
    void silentServer_stageAfterTimeoutPlusMargin_isAViolation_namingRequestServerAndSeed() {
        outages.silent("s1", 10_000);
        checker.decision(decision("c-0", 10_000 + T + 900, "s1"), 14_000); // within the margin
        checker.decision(decision("c-1", 10_000 + T + 1_100, "s0", "s1"), 14_200);
        assertThat(violations(Invariant.NO_STAGE_ON_SILENT_SERVER)).isEqualTo(1);
        assertThat(heard).singleElement().satisfies(v -> {
            assertThat(v.subject()).isEqualTo("c-1 on s1");
            assertThat(v.seed()).isEqualTo(SEED);
            assertThat(v.atMillis()).isEqualTo(14_100);
            assertThat(v.toString()).contains("no-stage-on-silent-server", "--seed 99");
        });
    }

    @Test
    void silentServer_decidedAfterItReportedAgain_isNoViolation() {
        outages.silent("s1", 10_000);
        outages.reported("s1", 20_000);
        checker.decision(decision("c-0", 15_000, "s1"), 20_500); // written after its return
        checker.decision(decision("c-1", 21_000, "s1"), 21_010); // made after its return
        assertThat(violations(Invariant.NO_STAGE_ON_SILENT_SERVER)).isZero();
        checker.decision(decision("c-2", 15_000, "s1"), 19_000);
        assertThat(violations(Invariant.NO_STAGE_ON_SILENT_SERVER)).isEqualTo(1);
    }

    @Test
    void everyRequestDecided_firstWins_duplicatesCounted_undecidedNamed() {
        checker.decision(decision("c-0", 1, "s0"), 2);
        checker.decision(decision("c-0", 1, "s1"), 3);
        checker.decision(decision("c-2", 1, "s0"), 2);
        checker.decision(decision("x-1", 1, "s0"), 2); // not this run's
        checker.finish(3, i -> 1_000 + i);
        assertThat(checker.duplicates()).isEqualTo(1);
        assertThat(checker.decided(3)).isEqualTo(2);
        assertThat(heard).singleElement().satisfies(v -> {
            assertThat(v.invariant()).isEqualTo(Invariant.EVERY_REQUEST_DECIDED);
            assertThat(v.subject()).isEqualTo("c-1");
            assertThat(v.atMillis()).isEqualTo(1_001);
        });
        assertThat(checker.counts().get("every-request-decided")).containsEntry("checked", 3L);
    }

    @Test
    void tableVersions_goingBack_isAViolation_unlessARollbackNamedIt() {
        checker.table(PlacementTableRecord.of("c", 2, 1, "{}"));
        checker.table(PlacementTableRecord.of("c", 3, 2, "{}"));
        checker.table(PlacementTableRecord.of("c", 3, 3, "{}")); // a replay of the same version
        checker.table(PlacementTableRecord.of("other", 1, 3, "{}"));
        assertThat(violations(Invariant.TABLE_VERSIONS_NEVER_GO_BACK)).isZero();
        checker.table(PlacementTableRecord.of("c", 2, 4, "{}"));
        assertThat(violations(Invariant.TABLE_VERSIONS_NEVER_GO_BACK)).isEqualTo(1);
        checker.event(ControllerEvent.of(ControllerEventType.TABLE_ROLLED_BACK, 5,
                Map.of("fromVersion", 3, "restoredVersion", 1, "tableVersion", 4)));
        checker.table(PlacementTableRecord.of("c", 1, 6, "{}"));
        assertThat(violations(Invariant.TABLE_VERSIONS_NEVER_GO_BACK)).isEqualTo(1);
    }

    @Test
    void deadLetters_ofAValidRequest_isAViolation_malformedOnesAreNot() {
        byte[] valid = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS).serialize(
                InferenceRequest.of("c-7", "resnet18", "t", 5, null));
        checker.deadLetter(DeadLetter.of("{\"schemaVersion\":1".getBytes(StandardCharsets.UTF_8),
                Topics.INFERENCE_REQUESTS.name(), 0, 1, "malformed JSON", 10));
        checker.deadLetter(DeadLetter.of(new byte[] {(byte) 0x9f, 1, 2}, Topics.INFERENCE_REQUESTS.name(), 0, 2,
                "binary", 10));
        checker.deadLetter(DeadLetter.of(valid, Topics.CLUSTER_TELEMETRY.name(), 0, 3, "not telemetry", 10));
        assertThat(violations(Invariant.NO_VALID_REQUEST_DEAD_LETTERED)).isZero();
        checker.deadLetter(DeadLetter.of(valid, Topics.INFERENCE_REQUESTS.name(), 0, 4,
                "model 'resnet18' is not in the model catalog", 20));
        assertThat(violations(Invariant.NO_VALID_REQUEST_DEAD_LETTERED)).isEqualTo(1);
        assertThat(heard.get(0).detail()).contains("not in the model catalog");
        assertThat(checker.counts().get("no-valid-request-dead-lettered")).containsEntry("checked", 3L);
    }

    @Test
    void readyChecks_countOnlyDecisionsFromASolvedTable() {
        checker.decision(PlacementDecision.of("ready-m-0", "m", "t", 0, true, List.of(new StageAssignment("a", "s0")),
                0.01, 1), 2);
        assertThat(checker.readyModels()).isEmpty();
        checker.decision(decision("ready-m-1", 1, "s0"), 2);
        assertThat(checker.readyModels()).containsExactly("m");
    }

    @Test
    void resumptions_timeEveryDecisionByItsWriteTime_duplicatesAndReadyChecksToo() {
        FaultRunner.Injected kill = new FaultRunner.Injected(
                new ScheduledFault(FaultKind.CONTROLLER_KILL, 1_000, 1_000, "", 0), 1_000, 2_000);
        checker.decision(decision("c-0", 500, "s0"), 900);
        checker.decision(decision("c-1", 1_900, "s0"), 2_000); // at the end: not after it
        checker.decision(decision("c-1", 1_900, "s0"), 2_300); // a duplicate is the controller deciding again
        checker.decision(decision("ready-m-0", 1_900, "s0"), 2_200);
        assertThat(checker.resumptions(List.of(kill), 0, 10_000)).singleElement().satisfies(r -> {
            assertThat(r.resumeMillis()).isEqualTo(200);
            assertThat(r.longestGapMillis()).isEqualTo(1_100); // 900 -> 2,000
        });
    }
}
