package dev.nona.controller.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.TableSolver;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class SolveSchedulerTest {
    private static final RateWindows.Trigger INITIAL =
            new RateWindows.Trigger("catalog: model added fig1", Map.of("fig1", 2.0), true);

    private static TestingLoop loop(TableSolver solver) {
        return new TestingLoop(TestingLoop.settings(Duration.ofMinutes(10)), solver);
    }

    /** Two servers and Fig. 1's model. */
    private static TestingLoop ready(TableSolver solver) throws Exception {
        TestingLoop loop = loop(solver);
        loop.cluster.report(TestingCluster.server("s0", 0), loop.io);
        loop.cluster.report(TestingCluster.server("s1", 0), loop.io);
        loop.catalog.put(TestingCluster.entry("fig1", TestingCluster.figure1()), loop.io);
        loop.io.events.clear();
        return loop;
    }

    /** Fails its first {@code failures} solves with a NullPointerException, then solves with Nona's solver. */
    private static TableSolver flaky(int failures) {
        AtomicInteger calls = new AtomicInteger();
        return (input, current, cancelled) -> {
            if (calls.incrementAndGet() <= failures) {
                Object missing = null;
                missing.hashCode(); // a real NPE, whose getMessage() is not the point
            }
            return new NonaTableSolver(false).solve(input, current, cancelled);
        };
    }

    private static void at(TestingLoop loop, long now) throws Exception {
        loop.io.now = now;
        loop.scheduler.poll(loop.io);
        loop.scheduler.startIfDue(loop.io);
    }

    @Test
    void failedSolve_isReported_andRetriedWithBackoff_untilItPublishes() throws Exception {
        TestingLoop loop = ready(flaky(2));
        loop.scheduler.enqueue(INITIAL, 1000, loop.io);
        loop.scheduler.startIfDue(loop.io);
        at(loop, 10);
        List<ControllerEvent> failed = loop.io.events(ControllerEventType.SOLVE_FAILED);
        assertThat(failed).singleElement().satisfies(e -> {
            assertThat(e.details()).containsEntry("attempt", 1).containsEntry("retryInMillis", 1000L);
            assertThat((String) e.details().get("error"))
                    .as("the failure's type, not getMessage()").startsWith("java.lang.NullPointerException");
        });
        assertThat(loop.io.processingTimers).contains(1010L);
        at(loop, 1009);
        assertThat(loop.runner.submitted).as("no retry before the backoff").hasSize(1);
        at(loop, 1010);
        at(loop, 1020);
        assertThat(loop.io.events(ControllerEventType.SOLVE_FAILED)).hasSize(2).last().satisfies(e ->
                assertThat(e.details()).containsEntry("attempt", 2).containsEntry("retryInMillis", 2000L));
        at(loop, 3019);
        at(loop, 3020);
        at(loop, 3030);
        List<ControllerEvent> started = loop.io.events(ControllerEventType.REOPTIMIZATION_STARTED);
        assertThat(started).extracting(ControllerEvent::time).containsExactly(0L, 1010L, 3020L);
        assertThat(started).allSatisfy(e -> assertThat(e.details()).as("the same trigger, kept until answered")
                .containsEntry("cause", "catalog: model added fig1"));
        assertThat(loop.io.tables).singleElement().satisfies(t -> assertThat(t.version()).isEqualTo(1));
        assertThat(loop.failedSolves).hasValue(2);
        assertThat(loop.solves).hasValue(3);
        assertThat(loop.scheduler.idle()).as("answered: consumed").isTrue();
        at(loop, 63_030);
        assertThat(loop.runner.submitted).hasSize(3);
    }

    @Test
    void solvePastItsTimeout_isCancelled_andRetriedAfterTheBackoff() throws Exception {
        TestingLoop loop = ready(new NonaTableSolver(false));
        loop.runner.hang = true;
        loop.scheduler.enqueue(INITIAL, 1000, loop.io);
        loop.scheduler.startIfDue(loop.io);
        at(loop, 29_999);
        assertThat(loop.io.events(ControllerEventType.SOLVE_TIMED_OUT)).isEmpty();
        assertThat(loop.io.processingTimers).as("polled again at the timeout at the latest").contains(30_000L);
        at(loop, 30_000);
        assertThat(loop.io.events(ControllerEventType.SOLVE_TIMED_OUT)).singleElement().satisfies(e -> {
            assertThat(e.details()).containsEntry("attempt", 1).containsEntry("retryInMillis", 1000L);
            assertThat((String) e.details().get("error")).isEqualTo("solve timed out after 30000 ms");
        });
        assertThat(loop.runner.cancelled).isEqualTo(1);
        at(loop, 30_999);
        assertThat(loop.runner.submitted).hasSize(1);
        at(loop, 31_000);
        assertThat(loop.runner.submitted).as("retried after the backoff").hasSize(2);
        assertThat(loop.io.tables).isEmpty();
    }

    @Test
    void triggerWithoutAUsableCluster_waits_andIsSolvedWithTheNextOne() throws Exception {
        TestingLoop loop = loop(new NonaTableSolver(false));
        loop.catalog.put(TestingCluster.entry("fig1", TestingCluster.figure1()), loop.io);
        loop.scheduler.enqueue(INITIAL, 1000, loop.io);
        at(loop, 1_000);
        assertThat(loop.io.events(ControllerEventType.REOPTIMIZATION_STARTED)).as("no server yet").isEmpty();
        assertThat(loop.scheduler.idle()).as("the trigger waits").isFalse();
        loop.cluster.report(TestingCluster.server("s0", 1500), loop.io);
        loop.scheduler.enqueue(new RateWindows.Trigger("cluster: server s0 up", Map.of("fig1", 2.0), false), 2000,
                loop.io);
        at(loop, 2_000);
        at(loop, 2_010);
        assertThat(loop.io.events(ControllerEventType.REOPTIMIZATION_STARTED)).singleElement().satisfies(e ->
                assertThat((String) e.details().get("cause")).contains("catalog: model added fig1", "cluster: "));
        assertThat(loop.io.tables).singleElement().satisfies(t -> assertThat(t.version()).isEqualTo(1));
    }

    @Test
    void triggerArrivingWhileSolving_isSolvedNext_withOnlyItsOwnCause() throws Exception {
        TestingLoop loop = ready(new NonaTableSolver(false));
        loop.scheduler.enqueue(INITIAL, 1000, loop.io);
        loop.scheduler.startIfDue(loop.io);
        loop.scheduler.enqueue(new RateWindows.Trigger("rate", Map.of("fig1", 40.0), false), 2000, loop.io);
        at(loop, 10);
        assertThat(loop.io.tables).hasSize(1);
        assertThat(loop.runner.submitted).extracting(SolveInput::cause).containsExactly("catalog: model added fig1", "rate");
        assertThat(loop.runner.submitted.get(1).rates()).containsEntry("fig1", 40.0);
    }

    @Test
    void solveRunningAtACheckpoint_isStartedAgainAfterTheRestore() throws Exception {
        TestingLoop before = ready(new NonaTableSolver(false));
        before.runner.hang = true;
        before.scheduler.enqueue(INITIAL, 1000, before.io);
        before.scheduler.startIfDue(before.io);
        SolveInput input = before.runner.submitted.get(0);

        TestingLoop loop = ready(new NonaTableSolver(false)); // restored: the state, a new runner
        loop.backlog.update(before.backlog.value());
        loop.running.update(before.running.value());
        at(loop, 500);
        assertThat(loop.runner.submitted).containsExactly(input);
        assertThat(loop.running.value().startedAt()).as("its timeout runs from the restart").isEqualTo(500);
        assertThat(loop.io.processingTimers).contains(510L);
        at(loop, 510);
        assertThat(loop.io.tables).singleElement().satisfies(t -> assertThat(t.version()).isEqualTo(1));
        assertThat(loop.io.events(ControllerEventType.REOPTIMIZATION_STARTED)).as("not a new start").isEmpty();
    }

    @Test
    void frozen_recordsTheTrigger_andSolvesItAfterTheUnfreeze() throws Exception {
        TestingLoop loop = ready(new NonaTableSolver(false));
        ControllerCommand freeze = ControllerCommand.freeze("f", 1, true);
        loop.operator.update(loop.operator.commands().with(freeze));
        loop.scheduler.enqueue(INITIAL, 1000, loop.io);
        loop.scheduler.enqueue(new RateWindows.Trigger("rate", Map.of("fig1", 40.0), false), 2000, loop.io);
        assertThat(loop.io.events(ControllerEventType.DRIFT_FROZEN)).extracting(e -> e.details().get("detail"))
                .containsExactly("re-optimisation is frozen by an operator: the first table is solved after UNFREEZE",
                        "re-optimisation is frozen by an operator: recorded, solved after UNFREEZE");
        at(loop, 10_000);
        assertThat(loop.runner.submitted).isEmpty();
        loop.operator.update(loop.operator.commands().with(ControllerCommand.freeze("u", 2, false)));
        at(loop, 10_010);
        assertThat(loop.runner.submitted).singleElement().satisfies(i ->
                assertThat(i.cause()).isEqualTo("catalog: model added fig1; rate"));
    }

    @Test
    void publishedTable_isTheCurrentOne_forTheNextSolve() throws Exception {
        TestingLoop loop = ready(new NonaTableSolver(false));
        loop.scheduler.enqueue(INITIAL, 1000, loop.io);
        at(loop, 0);
        at(loop, 10);
        ControllerTable v1 = loop.io.tables.get(0);
        assertThat(loop.tables.current()).isEqualTo(v1);
        assertThat(loop.io.events(ControllerEventType.REOPTIMIZATION_FINISHED)).hasSize(1);
        assertThat(loop.io.events(ControllerEventType.TABLE_PUBLISHED)).singleElement()
                .satisfies(e -> assertThat(e.details()).containsEntry("tableVersion", 1L));
    }
}
