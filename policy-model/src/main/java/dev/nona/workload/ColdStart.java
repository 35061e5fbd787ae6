package dev.nona.workload;

import dev.nona.check.Checks;

/**
 * A model's cold start, for the model-aware extension of the cost model (docs/model-aware.md): how long loading
 * it takes and on how many servers it is warm. Optional in a workload file ({@code models[i].coldStart}); the
 * paper's formulation ignores it.
 *
 * @param seconds     $T_{CS}$, finite and $\ge 0$
 * @param warmServers servers that hold the model, $\ge 0$
 */
public record ColdStart(double seconds, int warmServers) {
    public ColdStart {
        Checks.nonNegative(seconds, "coldStart.seconds", WorkloadException::new);
        if (warmServers < 0) {
            throw new WorkloadException("coldStart.warmServers (" + warmServers + ") must be >= 0");
        }
    }
}
