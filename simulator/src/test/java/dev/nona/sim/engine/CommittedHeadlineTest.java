package dev.nona.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.policy.PolicyContext;
import dev.nona.sim.policy.PolicyRegistry;
import dev.nona.sim.workload.SimWorkloads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With its options off the engine runs the paper's simulation as before: seed 1 of the committed headline
 * ({@code docs/results/headline/headline.csv}, written by {@code bin/nona experiment headline} before the engine
 * was shared with the thesis's simulator) is reproduced to the CSV's six significant digits.
 */
final class CommittedHeadlineTest {
    private static final Path ZOO = Path.of("../examples/zoo.json");
    private static final Path HEADLINE = Path.of("../docs/results/headline/headline.csv");

    @ParameterizedTest
    @ValueSource(strings = {"jsq", "spark-fair", "local"})
    void optionsOff_seed1AtTheHeadlinesLoad_reproducesTheCommittedFigures(String policy) throws IOException {
        SimWorkload w = SimWorkloads.read(ZOO).sim().withLoad(0.7);
        SimResult r = new Simulator(w, PolicyRegistry.create(policy, PolicyContext.basic(w, 1)), policy,
                SimConfig.of(20_000, 1)).run();

        String[] row = committedRow(policy);
        assertClose(r.meanJctSeconds(), Double.parseDouble(row[2]));
        assertClose(r.p99JctSeconds(), Double.parseDouble(row[3]));
        assertClose(r.inference().mean(), Double.parseDouble(row[4]));
        assertClose(r.linkUtilization(), Double.parseDouble(row[5]));
    }

    private static void assertClose(double actual, double committed) {
        assertThat(actual).isCloseTo(committed, within(Math.abs(committed) * 1e-5));
    }

    private static String[] committedRow(String policy) throws IOException {
        List<String> lines = Files.readAllLines(HEADLINE);
        assertThat(lines.get(0)).isEqualTo("seed,policy,meanJctSeconds,p99JctSeconds,inferenceMeanJctSeconds,linkUtilization");
        return lines.stream().map(l -> l.split(",")).filter(f -> f[0].equals("1") && f[1].equals(policy)).findFirst()
                .orElseThrow(() -> new AssertionError("no seed-1 row for " + policy + " in " + HEADLINE));
    }
}
