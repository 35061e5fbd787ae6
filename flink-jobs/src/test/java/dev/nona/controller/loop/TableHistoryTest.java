package dev.nona.controller.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.calibration.JctTally;
import dev.nona.controller.TestingCluster;
import dev.nona.controller.command.CommandRecord;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.optimize.TableGate;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEventType;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class TableHistoryTest {
    private static final SolveInput INPUT = new SolveInput(Map.of("fig1", TestingCluster.figure1()),
            Map.of("fig1", 10.0), TestingCluster.snapshot(2), "rate");

    private final TestingLoop loop = new TestingLoop(TestingLoop.settings(Duration.ofMinutes(10)),
            new NonaTableSolver(false));

    private static ControllerTable table(long version, String tableJson, double replacedPredictedMeanJctSeconds) {
        return new ControllerTable(version, false, 0, "test", Map.of("fig1", 10.0), TestingCluster.snapshot(2), 1.0,
                0.1, Map.of("fig1", 0.01), tableJson, replacedPredictedMeanJctSeconds);
    }

    private static ControllerTable fallback(long version) {
        return new ControllerTable(version, true, 0, "infeasible load: test", Map.of("fig1", 10.0),
                TestingCluster.snapshot(2), Double.NaN, Double.NaN, Map.of(), null);
    }

    /** A feasible solve to {@code tableJson}, predicted better than the current table. */
    private static SolveResult solvedTo(String tableJson) {
        return new SolveResult(null, true, tableJson, 0.5, 0.1, 0.0, Map.of("fig1", 0.01), 1.0, 1, 1.0, true, "");
    }

    @Test
    void afterARestoreFromAnOlderCheckpoint_theNextTableFollowsTheNewestVersionPublished_notTheRestoredOne()
            throws Exception {
        // restored with v2 in force while v5 was the newest on placement-tables when the job was built
        TestingLoop restored = new TestingLoop(TestingLoop.settings(Duration.ofMinutes(10)), new NonaTableSolver(false));
        TableHistory history = new TableHistory(restored.settings, restored.current, restored.previous,
                restored.tableOutcomes, restored.rolledBack, restored.operator, restored.rollbacks::incrementAndGet, 5);
        restored.current.update(table(2, "B", Double.NaN));
        TableGate.Verdict verdict = history.verdict(INPUT, solvedTo("C"), 1_000);
        assertThat(verdict.publish()).isNotNull();
        assertThat(verdict.publish().version()).as("never a version published already").isEqualTo(6);
        // a current table newer than the floor numbers on from itself
        restored.current.update(table(9, "B", Double.NaN));
        assertThat(history.verdict(INPUT, solvedTo("D"), 2_000).publish().version()).isEqualTo(10);
    }

    @Test
    void publishSolved_keepsTheReplacedTable_withOnlyItsOutcomes_unlessEitherIsAFallback() throws Exception {
        ControllerTable v1 = table(1, "A", Double.NaN);
        loop.tables.publishSolved(v1, loop.io);
        loop.tables.tally(Map.of(1L, new JctTally(10, 0.1, 0.1), 7L, new JctTally(5, 1, 1)), loop.io);
        assertThat(loop.tableOutcomes.map).as("only the current and the previous table count").containsOnlyKeys(1L);
        loop.tables.publishSolved(table(2, "B", 0.01), loop.io);
        assertThat(loop.previous.value()).isEqualTo(v1);
        assertThat(loop.tableOutcomes.map).containsOnlyKeys(1L);
        assertThat(loop.current.value().version()).isEqualTo(2);
        assertThat(loop.tables.version()).isEqualTo(2);
        assertThat(loop.io.tables).extracting(ControllerTable::version).containsExactly(1L, 2L);
        assertThat(loop.keptTables.map).as("kept for an operator's rollback").containsOnlyKeys(1L, 2L);

        loop.tables.publishSolved(fallback(3), loop.io);
        assertThat(loop.previous.value()).as("a fallback table is not judged against a solved one").isNull();
        assertThat(loop.tableOutcomes.isEmpty()).isTrue();
    }

    @Test
    void tableObservedWorseThanTheOneItReplaced_isRolledBack_andNotPublishedAgain_untilWhatWasLearnedChanges()
            throws Exception {
        double p = 0.02; // v1's predicted mean JCT at v2's rates
        ControllerTable v1 = table(1, "A", Double.NaN);
        loop.tables.publishSolved(v1, loop.io);
        loop.tables.publishSolved(table(2, "B", p), loop.io);
        // v1 observed as predicted (ratio 1: it would give p now); v2 observed at 1.5 p > 1.2 p
        loop.tables.tally(Map.of(1L, new JctTally(150, 150 * 0.01, 150 * 0.01),
                2L, new JctTally(60, 60 * 1.5 * p, 60 * p / 2)), loop.io);
        assertThat(loop.io.events(ControllerEventType.TABLE_ROLLED_BACK)).as("60 of v2's outcomes: not yet").isEmpty();
        loop.io.now = 2_000;
        loop.tables.tally(Map.of(2L, new JctTally(60, 60 * 1.5 * p, 60 * p / 2)), loop.io);
        assertThat(loop.io.events(ControllerEventType.TABLE_ROLLED_BACK)).singleElement().satisfies(e -> {
            assertThat(e.time()).isEqualTo(2_000);
            assertThat(e.details()).containsEntry("fromVersion", 2L).containsEntry("restoredVersion", 1L)
                    .containsEntry("tableVersion", 3L).containsEntry("samples", 120L)
                    .containsEntry("previousSamples", 150L).containsEntry("margin", 0.2);
            assertThat((double) e.details().get("observedMeanJctSeconds")).isCloseTo(1.5 * p, within(1e-12));
            assertThat((double) e.details().get("previousExpectedMeanJctSeconds")).isCloseTo(p, within(1e-12));
        });
        assertThat(loop.io.tables).hasSize(3).last().satisfies(t -> {
            assertThat(t.version()).isEqualTo(3);
            assertThat(t.createdAt()).isEqualTo(2_000);
            assertThat(t.tableJson()).isEqualTo(v1.tableJson());
            assertThat(t.cause()).startsWith("rollback: table v2");
        });
        assertThat(loop.rollbacks).hasValue(1);
        assertThat(loop.previous.value()).isNull();
        assertThat(loop.tableOutcomes.isEmpty()).isTrue();
        assertThat(loop.keptTables.map).containsKey(3L);

        // the next solve to v2's table again: refused
        TableGate.Verdict again = loop.tables.verdict(INPUT, solvedTo("B"), 3_000);
        assertThat(again.publish()).isNull();
        assertThat(again.events()).filteredOn(e -> e.type() == ControllerEventType.TABLE_REJECTED).singleElement()
                .satisfies(e -> assertThat((String) e.details().get("reason")).contains("rolled back"));
        assertThat(loop.tables.verdict(INPUT, solvedTo("C"), 3_000).publish()).as("another table").isNotNull();
        loop.tables.forgetRolledBack();
        assertThat(loop.tables.verdict(INPUT, solvedTo("B"), 3_000).publish()).as("judged anew").isNotNull();
    }

    private static CommandRecord rollback(String id, long version) {
        return CommandRecord.of(ControllerCommand.rollback(id, 1, version), "controller-commands", 0, 7);
    }

    @Test
    void operatorRollback_republishesAKeptTableAsANewVersion_once_andAnUnknownVersionIsADeadLetter() throws Exception {
        ControllerTable v1 = table(1, "A", Double.NaN);
        loop.tables.publishSolved(v1, loop.io);
        loop.tables.operatorRollback(rollback("rb-1", 1), loop.io);
        loop.tables.operatorRollback(rollback("rb-1", 1), loop.io); // replayed after a restore: not done twice
        assertThat(loop.io.tables).hasSize(2).last().satisfies(t -> {
            assertThat(t.version()).isEqualTo(2);
            assertThat(t.tableJson()).isEqualTo(v1.tableJson());
            assertThat(t.cause()).isEqualTo("operator rollback to table v1 (command rb-1)");
        });
        assertThat(loop.previous.value()).as("the automatic rule starts over from the rolled-back table").isNull();
        assertThat(loop.io.events(ControllerEventType.TABLE_ROLLED_BACK)).singleElement().satisfies(e ->
                assertThat(e.details()).containsEntry("command", "rb-1").containsEntry("restoredVersion", 1L)
                        .containsEntry("tableVersion", 2L));
        assertThat(loop.io.events(ControllerEventType.COMMAND_APPLIED)).singleElement()
                .satisfies(e -> assertThat(e.details()).containsEntry("commandId", "rb-1")
                        .containsEntry("applied", "table v1 published again as v2"));
        loop.tables.operatorRollback(rollback("rb-2", 9), loop.io);
        assertThat(loop.io.deadLetters).singleElement().satisfies(r ->
                assertThat(r.reason()).isEqualTo("command 'rb-2' (ROLLBACK_TABLE): table version 9 is "
                        + "not among the last 8 published, which the controller keeps: [1, 2]"));
        assertThat(loop.io.tables).hasSize(2);
    }
}
