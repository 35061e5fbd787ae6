package dev.nona.controller.loop;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.optimize.TableSolver;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link SolveRunner} that solves on the caller's thread when a solve is submitted and hands the result to the
 * next {@link #poll()}; with {@link #hang} set, submitted solves never finish (until cancelled).
 */
final class TestingSolveRunner implements SolveRunner {
    private final TableSolver solver;
    /** Whether submitted solves never finish. */
    boolean hang;
    final List<SolveInput> submitted = new ArrayList<>();
    int cancelled;
    private boolean busy;
    private SolverThread.Finished finished;

    TestingSolveRunner(TableSolver solver) {
        this.solver = solver;
    }

    @Override
    public boolean busy() {
        return busy;
    }

    @Override
    public void submit(SolveInput input, ControllerTable current, long timeoutMillis) {
        if (busy) {
            throw new IllegalStateException("BUG: a solve is already in flight");
        }
        busy = true;
        submitted.add(input);
        finished = hang ? null : solve(input, current);
    }

    private SolverThread.Finished solve(SolveInput input, ControllerTable current) {
        try {
            return new SolverThread.Finished(solver.solve(input, current, () -> false), false);
        } catch (RuntimeException e) {
            return new SolverThread.Finished(SolveResult.failed(e, 0), false);
        }
    }

    @Override
    public SolverThread.Finished poll() {
        if (!busy || finished == null) {
            return null;
        }
        busy = false;
        return finished;
    }

    @Override
    public void cancel() {
        if (busy) {
            busy = false;
            finished = null;
            cancelled++;
        }
    }

    @Override
    public void close() {
        cancel();
    }
}
