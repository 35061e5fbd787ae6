package dev.nona.cli;

import dev.nona.check.Checks;
import dev.nona.optimize.CostModel;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options and checks that {@code nona simulate} and {@code nona experiment} share: the seed, the cost model
 * Nona's optimiser solves, and the checks of {@code --workload} and {@code --jobs} (whose defaults differ per verb).
 */
final class SimulationOptions {
    @Option(names = "--seed", defaultValue = "1", description = "Seed of the arrival and placement streams. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--cost-model", defaultValue = "server-queueing", description = "Formulation Nona's optimiser solves: server-queueing (the paper's plus server entry/re-entry waits under a uniform mapping), paper (Eqs. I-XII) or controller-mapping (pooled M/G/N server wait and fork-join, the controller's mapping). The controller's policies (nona-controller, nona-controller-p2) solve controller-mapping unless this is paper. Default: ${DEFAULT-VALUE}.")
    String costModel;

    /** The {@code --cost-model} option as a cost model; throws naming the option and value if it is neither. */
    CostModel costModel() {
        return switch (costModel) {
            case "paper" -> CostModel.PAPER;
            case "server-queueing" -> CostModel.DEFAULT;
            case "controller-mapping" -> CostModel.CONTROLLER_MAPPING;
            default -> throw new IllegalArgumentException("--cost-model (" + costModel + ") must be " + CostModel.NAMES);
        };
    }

    static void requireWorkloadFile(Path workload) {
        if (!Files.isRegularFile(workload)) {
            throw new IllegalArgumentException("--workload (" + workload + ") is not a readable file");
        }
    }

    static void requireJobs(long jobs) {
        Checks.atLeastOne(jobs, "--jobs");
    }
}
