package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.placement.LiveServers;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.PlacementDecision;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A local request's predicted JCT is the DAG's compute on the server it was given ($\sum_t p^t / \nu_s$, 8e9 ops),
 * with that server's learned speed: here w (warm, learned 4e9 ops/s, so 2 s), not the mean speed of the live servers
 * ((4e9 + 1e9) / 2 = 2.5e9 ops/s, 3.2 s).
 */
final class LocalPlacerTest {
    private static final long T = 10_000;
    private static final CatalogDag DAG = new CatalogDag("m",
            List.of(new CatalogTask("a", 3e9), new CatalogTask("b", 5e9)), List.of(new CatalogEdge("a", "b", 1e6)));

    private static LiveServers servers() {
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.report("w", true, 1e9, 0, 0, List.of("m"), T, 0);
        servers.report("c", true, 1e9, 0, 0, List.of(), T, 0);
        servers.recalibrate("w", 4e9);
        return servers;
    }

    @Test
    void predictedJct_learnedSpeedsDiffer_isTheChosenServersNotTheMean() {
        LiveServers servers = servers();
        LocalPlacer placer = new LocalPlacer("m", DAG, servers.meanOpsPerSecond());
        assertThat(placer.predictedJctSeconds()).isCloseTo(8e9 / 2.5e9, within(1e-12)); // no server chosen yet

        PlacementDecision d = DecisionExplanations.decide(placer, servers, "r1", "t", 0, true, T,
                new SplittableRandom(1), false);

        assertThat(d.stages()).extracting(s -> s.server()).containsOnly("w");
        assertThat(placer.predictedJctSeconds()).isCloseTo(2.0, within(1e-12));
        DecisionExplanation why = d.explanation();
        assertThat(why.tableJctSeconds()).isEqualTo(placer.predictedJctSeconds());
    }
}
