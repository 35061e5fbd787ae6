package dev.nona.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.dag.DagAnalysis;
import dev.nona.dag.EnumerationBound;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nona dag stats}: reads one model DAG, contracts, decomposes and enumerates it, and prints one
 * JSON object ({@link dev.nona.dag.DagStats}) on stdout.
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Print a model DAG's counts before/after contraction, its subgraphs and variables as JSON.")
final class DagStatsCommand extends DagInputCommand implements Callable<Integer> {

    @Option(names = "--max-triplets", paramLabel = "N", defaultValue = "" + EnumerationBound.DEFAULT_MAX_TRIPLETS,
            description = "most triplets enumerated per subgraph before a reduced family is used (default: ${DEFAULT-VALUE})")
    long maxTriplets;

    @Override
    public Integer call() throws Exception {
        EnumerationBound bound = new EnumerationBound(maxTriplets);
        DagAnalysis analysis = DagAnalysis.analyse(load(), bound);
        print(new ObjectMapper().writeValueAsString(analysis.stats()));
        return 0;
    }
}
