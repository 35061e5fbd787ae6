package dev.nona.modelaware;

import static dev.nona.modelaware.TestingCluster.T5_SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

final class WarmFirstServerMapperTest {
    private static final List<String> ALL = List.of("s0", "s1", "s2", "s3", "s4", "s5");

    @Test
    void map_warmServersUnderTargetFirst_leastLoadedFirst() {
        TestingCluster c = new TestingCluster(6, 8)
                .running("s4", 1, T5_SMALL).running("s4", 1, T5_SMALL)
                .running("s1", 1, T5_SMALL);
        for (int i = 0; i < 3; i++) {
            c.running("s5", 1, T5_SMALL); // at target: not preferred
        }
        var mapper = new WarmFirstServerMapper(c.registry(), new SplittableRandom(3));

        List<String> servers = mapper.map("t5-small", 4, ALL);

        assertThat(servers.subList(0, 2)).containsExactly("s1", "s4");
        assertThat(servers).doesNotHaveDuplicates().hasSize(4);
    }

    @Test
    void map_onlyEligibleServers() {
        TestingCluster c = new TestingCluster(6, 8).running("s1", 1, T5_SMALL);
        var mapper = new WarmFirstServerMapper(c.registry(), new SplittableRandom(3));

        assertThat(mapper.map("t5-small", 2, List.of("s2", "s3"))).containsExactlyInAnyOrder("s2", "s3");
        assertThatThrownBy(() -> mapper.map("t5-small", 3, List.of("s2", "s3"))).hasMessageContaining("parts (3)");
    }

    @Property(tries = 200, seed = "42")
    void map_alwaysDistinctEligibleServers(@ForAll @IntRange(min = 0, max = 6) int parts,
                                           @ForAll @IntRange(min = 0, max = 5) int warm, @ForAll long seed) {
        TestingCluster c = new TestingCluster(6, 8);
        for (int i = 0; i < warm; i++) {
            c.running("s" + i, 1, T5_SMALL);
        }
        List<String> servers = new WarmFirstServerMapper(c.registry(), new SplittableRandom(seed)).map("t5-small", parts, ALL);

        assertThat(servers).hasSize(parts).doesNotHaveDuplicates().isSubsetOf(ALL);
        int warmPrefix = Math.min(parts, warm);
        assertThat(servers.subList(0, warmPrefix)).allMatch(s -> c.registry().isResident(s, "t5-small"));
    }
}
