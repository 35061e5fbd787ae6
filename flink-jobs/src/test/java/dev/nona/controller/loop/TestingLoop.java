package dev.nona.controller.loop;

import dev.nona.calibration.JctTally;
import dev.nona.calibration.RollbackRule;
import dev.nona.controller.ControllerConfig.DriftSettings;
import dev.nona.controller.ControllerConfig.RetryBackoff;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.drift.DriftDetector;
import dev.nona.controller.drift.DriftState;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.TableSolver;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ServerTelemetry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The control loop's parts wired as {@link ControlLoopFunction} wires them, over in-memory state, a
 * {@link TestingLoopIo} and a {@link TestingSolveRunner}: for plain tests of one part with its real collaborators.
 */
final class TestingLoop {
    static final long WINDOW = 1000;

    final ControlLoopSettings settings;
    final TestingLoopIo io = new TestingLoopIo();
    final TestingMapState<String, ServerTelemetry> servers = new TestingMapState<>();
    final TestingMapState<String, Double> learnedSpeeds = new TestingMapState<>();
    final TestingMapState<String, CatalogDag> dags = new TestingMapState<>();
    final TestingMapState<Long, RateVector> windowRates = new TestingMapState<>();
    final TestingValueState<DriftState> drift = new TestingValueState<>();
    final TestingValueState<ControllerTable> current = new TestingValueState<>();
    final TestingValueState<ControllerTable> previous = new TestingValueState<>();
    final TestingMapState<Long, JctTally> tableOutcomes = new TestingMapState<>();
    final TestingValueState<RolledBack> rolledBack = new TestingValueState<>();
    final TestingValueState<SolveBacklog> backlog = new TestingValueState<>();
    final TestingValueState<RunningSolve> running = new TestingValueState<>();
    final TestingValueState<ActiveCommands> commands = new TestingValueState<>();
    final TestingMapState<Long, ControllerTable> keptTables = new TestingMapState<>();
    final TestingValueState<String> lastRollback = new TestingValueState<>();
    final AtomicInteger drifts = new AtomicInteger();
    final AtomicInteger rollbacks = new AtomicInteger();
    final AtomicInteger solves = new AtomicInteger();
    final AtomicInteger failedSolves = new AtomicInteger();

    final TestingSolveRunner runner;
    final OperatorControl operator;
    final RateWindows windows;
    final ModelCatalog catalog;
    final ClusterWatch cluster;
    final TableHistory tables;
    final CalibrationIntake calibration;
    final SolveScheduler scheduler;

    TestingLoop(ControlLoopSettings settings, TableSolver solver) {
        this.settings = settings;
        runner = new TestingSolveRunner(solver);
        operator = new OperatorControl(commands, keptTables, lastRollback);
        windows = new RateWindows(new DriftDetector(settings.drift(), settings.rateWindow()), windowRates, drift,
                settings.solvePoll().toMillis(), drifts::incrementAndGet);
        catalog = new ModelCatalog(dags, windows);
        cluster = new ClusterWatch(settings, servers, learnedSpeeds, () -> operator.commands().drained(), windows);
        tables = new TableHistory(settings, current, previous, tableOutcomes, rolledBack, operator,
                rollbacks::incrementAndGet);
        calibration = new CalibrationIntake(tables, cluster, windows);
        scheduler = new SolveScheduler(settings, backlog, running, runner, cluster, catalog, tables, operator,
                new SolveScheduler.Counters(solves::incrementAndGet, failedSolves::incrementAndGet));
    }

    /** Drift threshold 0.25 over 2 windows of {@link #WINDOW} ms, solve timeout 30 s, retries after 1 s to 8 s. */
    static ControlLoopSettings settings(Duration livenessTimeout) {
        return settings(livenessTimeout, 2, new RollbackRule(0.2, 100));
    }

    static ControlLoopSettings settings(Duration livenessTimeout, int driftWindows, RollbackRule rollback) {
        return new ControlLoopSettings(new DriftSettings(0.25, driftWindows, Duration.ZERO, 1.0),
                Duration.ofMillis(WINDOW), 1e10, Duration.ofSeconds(30), Duration.ofMillis(10),
                new RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(8)), livenessTimeout, rollback);
    }
}
