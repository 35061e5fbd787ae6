package dev.nona.controller.loop;

import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.optimize.TableGate;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ControllerEventType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ValueState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the control loop solves, and what becomes of a solve. A trigger waits in the {@link SolveBacklog} until a
 * solve for it finishes with a verdict (published or rejected, by {@link TableHistory#verdict}); a solve that fails
 * or runs past {@code solve.timeout} is cancelled, reported ({@code SOLVE_FAILED}, {@code SOLVE_TIMED_OUT}) and
 * retried with exponential backoff ({@code solve.retry-backoff}, {@code solve.retry-max-backoff}); a trigger that
 * cannot be solved yet (no usable server, empty catalog) waits for the next window; while an operator has frozen
 * re-optimisation, triggers are recorded and solved after the unfreeze.
 *
 * <p>The solve runs on a {@link SolveRunner}; its result is polled by processing-time timers on the task thread. The
 * backlog and the running solve's input are checkpointed; a solve running during a checkpoint is started again after
 * a restore. Logs as the control loop. Not thread safe: used by the task thread, except the gauge.
 */
final class SolveScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(ControlLoopFunction.class);

    /** Counts solves started and solves failed or timed out (metrics). */
    record Counters(Runnable started, Runnable failed) {}

    private final ControlLoopSettings settings;
    private final ValueState<SolveBacklog> backlog;
    private final ValueState<RunningSolve> running;
    private final SolveRunner runner;
    private final ClusterWatch cluster;
    private final ModelCatalog catalog;
    private final TableHistory tables;
    private final OperatorControl operator;
    private final Counters counters;
    private volatile double lastSolveMillis; // volatile: a metric gauge reads it

    SolveScheduler(ControlLoopSettings settings, ValueState<SolveBacklog> backlog, ValueState<RunningSolve> running,
            SolveRunner runner, ClusterWatch cluster, ModelCatalog catalog, TableHistory tables, OperatorControl operator,
            Counters counters) {
        this.settings = Objects.requireNonNull(settings, "control loop settings");
        this.backlog = Objects.requireNonNull(backlog, "solve backlog state");
        this.running = Objects.requireNonNull(running, "running solve state");
        this.runner = Objects.requireNonNull(runner, "solve runner");
        this.cluster = Objects.requireNonNull(cluster, "cluster watch");
        this.catalog = Objects.requireNonNull(catalog, "model catalog");
        this.tables = Objects.requireNonNull(tables, "table history");
        this.operator = Objects.requireNonNull(operator, "operator control");
        this.counters = Objects.requireNonNull(counters, "solve counters");
    }

    /** How long the last finished solve took, ms (0 before the first), for a gauge. */
    double lastSolveMillis() {
        return lastSolveMillis;
    }

    /** Whether no trigger waits and no solve runs. */
    boolean idle() throws Exception {
        return backlog.value() == null && running.value() == null;
    }

    /** A closed window's trigger joins the backlog (merged into a waiting one); frozen, a {@code DRIFT_FROZEN} says so. */
    void enqueue(RateWindows.Trigger trigger, long windowEnd, LoopIo io) throws Exception {
        SolveBacklog before = backlog.value();
        backlog.update(before == null ? SolveBacklog.of(trigger.cause(), trigger.rates())
                : before.merge(trigger.cause(), trigger.rates()));
        if (operator.frozen()) {
            io.event(ControllerEventType.DRIFT_FROZEN, Map.of("cause", trigger.cause(), "windowEnd", windowEnd,
                    "detail", trigger.initial()
                            ? "re-optimisation is frozen by an operator: the first table is solved after UNFREEZE"
                            : "re-optimisation is frozen by an operator: recorded, solved after UNFREEZE"));
        }
    }

    /** Starts a solve for the backlog unless one is running, its retry is not due, or there is nothing to solve. */
    void startIfDue(LoopIo io) throws Exception {
        SolveBacklog pending = backlog.value();
        if (pending == null || running.value() != null || operator.frozen()) {
            return; // frozen: the backlog keeps the trigger until UNFREEZE
        }
        long now = io.now();
        if (pending.retryAt() > now) {
            io.processingTimer(pending.retryAt());
            return;
        }
        SolveInput input = solveInput(pending, io);
        if (input == null) {
            LOG.debug("Trigger '{}' waits: no usable cluster or an empty catalog", pending.cause());
            return; // the backlog stays; the next window end tries again
        }
        running.update(new RunningSolve(input, pending.generation(), now));
        runner.submit(input, tables.current(), settings.solveTimeout().toMillis());
        counters.started().run();
        LOG.info("Solve started (attempt {}): {} for {} models on {} servers", pending.attempts() + 1, input.cause(),
                input.dags().size(), input.cluster().upServers().size());
        io.event(ControllerEventType.REOPTIMIZATION_STARTED, Map.of("cause", input.cause(),
                "models", input.dags().size(), "servers", input.cluster().upServers().size()));
        io.processingTimer(now + settings.solvePoll().toMillis());
    }

    /** What to solve for the backlog: the catalog, the cluster and the backlog's rates; null if not solvable yet. */
    private SolveInput solveInput(SolveBacklog pending, LoopIo io) throws Exception {
        ClusterSnapshot snapshot = cluster.snapshot(io);
        Map<String, CatalogDag> dags = catalog.dags();
        if (snapshot == null || !snapshot.usable() || dags.isEmpty()) {
            return null;
        }
        Map<String, Double> rates = new TreeMap<>();
        dags.keySet().forEach(m -> rates.put(m, pending.rates().getOrDefault(m, 0.0)));
        return new SolveInput(dags, rates, snapshot, pending.cause());
    }

    /**
     * At a processing-time timer: handles the running solve if it finished or ran past its timeout, restarts one
     * lost with the task it ran on (a restore), or polls again later.
     */
    void poll(LoopIo io) throws Exception {
        RunningSolve solve = running.value();
        if (solve == null) {
            return;
        }
        long now = io.now();
        long timeout = settings.solveTimeout().toMillis();
        long pollMillis = settings.solvePoll().toMillis();
        if (!runner.busy()) {
            // Restored from a checkpoint taken while solving: the result was lost with the old task; solve again.
            running.update(new RunningSolve(solve.input(), solve.generation(), now));
            runner.submit(solve.input(), tables.current(), timeout);
            io.processingTimer(now + pollMillis);
            return;
        }
        SolverThread.Finished finished = runner.poll();
        if (finished == null && now - solve.startedAt() >= timeout) {
            runner.cancel();
            finished = new SolverThread.Finished(SolveResult.failed("solve timed out after " + timeout + " ms",
                    now - solve.startedAt()), true);
        }
        if (finished == null) {
            io.processingTimer(Math.min(now + pollMillis, solve.startedAt() + timeout));
            return;
        }
        running.clear();
        lastSolveMillis = finished.result().solveMillis();
        if (finished.result().error() != null) {
            retryLater(solve, finished, io);
        } else {
            decide(solve, finished.result(), io);
        }
    }

    /** A solve with a verdict: publish or reject, and consume the trigger it answered. */
    private void decide(RunningSolve solve, SolveResult result, LoopIo io) throws Exception {
        TableGate.Verdict verdict = tables.verdict(solve.input(), result, io.now());
        verdict.events().forEach(io::event);
        LoopLog.verdict(solve.input(), result, verdict);
        if (verdict.publish() != null) {
            tables.publishSolved(verdict.publish(), io);
        }
        SolveBacklog pending = backlog.value();
        if (pending != null && pending.generation() == solve.generation()) {
            backlog.clear();
        } else if (pending != null) {
            backlog.update(pending.answered(solve.input().cause())); // a newer trigger arrived while solving: next
        }
    }

    /** A failed or timed-out solve: the trigger stays, reported, and is retried after a backoff. */
    private void retryLater(RunningSolve solve, SolverThread.Finished finished, LoopIo io) throws Exception {
        long now = io.now();
        counters.failed().run();
        TableGate.decide(tables.current(), solve.input(), finished.result(), now).events()
                .forEach(io::event); // REOPTIMIZATION_FINISHED with the error, as before
        SolveBacklog pending = backlog.value();
        if (pending == null) {
            throw new IllegalStateException("BUG: a solve finished with no trigger in the backlog");
        }
        long delay = settings.retry().delayMillis(pending.attempts() + 1);
        SolveBacklog next = pending.failed(now, delay);
        backlog.update(next);
        ControllerEventType type = finished.timedOut() ? ControllerEventType.SOLVE_TIMED_OUT : ControllerEventType.SOLVE_FAILED;
        LOG.warn("Solve {} (attempt {}): {}; cause: {}; retrying in {} ms", finished.timedOut() ? "timed out" : "failed",
                next.attempts(), finished.result().error(), solve.input().cause(), delay);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("cause", solve.input().cause());
        details.put("error", finished.result().error());
        details.put("attempt", next.attempts());
        details.put("retryInMillis", delay);
        details.put("solveMillis", finished.result().solveMillis());
        io.event(type, details);
        io.processingTimer(next.retryAt());
    }
}
