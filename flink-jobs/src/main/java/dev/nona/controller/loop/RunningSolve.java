package dev.nona.controller.loop;

import dev.nona.controller.optimize.SolveInput;
import java.util.Objects;

/**
 * The solve on the solver thread (checkpointed, so that a restore restarts it).
 *
 * @param input      what it solves
 * @param generation the {@link SolveBacklog#generation()} it answers
 * @param startedAt  processing time (ms) it started, for its timeout
 */
public record RunningSolve(SolveInput input, long generation, long startedAt) {
    public RunningSolve {
        Objects.requireNonNull(input, "solve input");
    }
}
