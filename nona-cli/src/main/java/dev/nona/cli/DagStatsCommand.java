package dev.nona.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.dag.DagAnalysis;
import dev.nona.dag.EnumerationBound;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code nona dag stats}: reads one model DAG, contracts, decomposes and enumerates it, and prints one
 * JSON object ({@link dev.nona.dag.DagStats}) on stdout.
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Print a model DAG's counts before/after contraction, its subgraphs and variables as JSON.")
final class DagStatsCommand extends DagInputCommand implements Callable<Integer> {

    @Mixin
    MaxTripletsOption triplets;

    @Override
    public Integer call() throws Exception {
        EnumerationBound bound = triplets.bound();
        DagAnalysis analysis = DagAnalysis.analyse(load(), bound);
        print(new ObjectMapper().writeValueAsString(analysis.stats()));
        return 0;
    }
}
