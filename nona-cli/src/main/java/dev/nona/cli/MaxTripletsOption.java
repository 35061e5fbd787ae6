package dev.nona.cli;

import dev.nona.check.Checks;
import dev.nona.dag.EnumerationBound;
import picocli.CommandLine.Option;

/** {@code --max-triplets N}, of the verbs that enumerate a DAG's triplets ({@code solve}, {@code dag stats}). */
final class MaxTripletsOption {
    @Option(names = "--max-triplets", paramLabel = "N", defaultValue = "" + EnumerationBound.DEFAULT_MAX_TRIPLETS,
            description = "most triplets enumerated per subgraph before a reduced family is used (default: ${DEFAULT-VALUE})")
    long maxTriplets;

    /** The bound it gives; below 1 it is an error naming the flag. */
    EnumerationBound bound() {
        return new EnumerationBound(Checks.atLeastOne(maxTriplets, "--max-triplets"));
    }
}
