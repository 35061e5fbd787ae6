package dev.nona.controller.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class ControlLimitsTest {
    @Test
    void catalog_atTheTaskAndEdgeLimits_isAccepted() {
        ControlLimits limits = new ControlLimits(4, 3, Set.of());
        assertThat(limits.rejection(chain("m", 4))).isNull();
    }

    @Test
    void catalog_oneTaskOverTheLimit_namesModelCountAndLimit() {
        ControlLimits limits = new ControlLimits(4, 100, Set.of());
        assertThat(limits.rejection(chain("big", 5)))
                .isEqualTo("model 'big' has 5 tasks, over catalog.max-tasks (4)");
    }

    @Test
    void catalog_oneEdgeOverTheLimit_namesModelCountAndLimit() {
        ControlLimits limits = new ControlLimits(100, 3, Set.of());
        assertThat(limits.rejection(chain("long", 5)))
                .isEqualTo("model 'long' has 4 edges, over catalog.max-edges (3)");
    }

    @Test
    void telemetry_withoutKnownServers_acceptsEveryServer() {
        ControlLimits limits = new ControlLimits(10, 10, Set.of());
        assertThat(limits.rejection(status("anything-at-all"))).isNull();
    }

    @Test
    void telemetry_fromAnUnknownServer_namesTheIdAndTheKnownOnes() {
        ControlLimits limits = new ControlLimits(10, 10, Set.of("s-1", "s-0"));
        assertThat(limits.rejection(status("s-0"))).isNull();
        assertThat(limits.rejection(status("s-9")))
                .isEqualTo("field 'serverId' ('s-9') is not a known server (cluster.servers: s-0, s-1)");
    }

    @Test
    void telemetry_fromAnUnknownServer_listsAtMostFiveKnownOnes() {
        ControlLimits limits = new ControlLimits(10, 10, ControlLimits.parseServers("a,b,c,d,e,f,g"));
        assertThat(limits.rejection(status("z")))
                .isEqualTo("field 'serverId' ('z') is not a known server (cluster.servers: a, b, c, d, e and 2 more)");
    }

    @Test
    void parseServers_trimsIds_andEmptyMeansAny() {
        assertThat(ControlLimits.parseServers(" s-0 , s-1,s-2 ")).containsExactlyInAnyOrder("s-0", "s-1", "s-2");
        assertThat(ControlLimits.parseServers("")).isEmpty();
        assertThat(ControlLimits.parseServers("  ")).isEmpty();
    }

    @Test
    void parseServers_badLists_nameTheValue() {
        assertThatThrownBy(() -> ControlLimits.parseServers("s-0,,s-1"))
                .hasMessage("cluster.servers (s-0,,s-1) has an empty server id");
        assertThatThrownBy(() -> ControlLimits.parseServers("s-0,s-1,"))
                .hasMessage("cluster.servers (s-0,s-1,) has an empty server id");
        assertThatThrownBy(() -> ControlLimits.parseServers("s-0, s-0"))
                .hasMessage("cluster.servers (s-0, s-0) lists 's-0' twice");
    }

    @Test
    void limits_outOfRange_nameTheKeyAndValue() {
        assertThatThrownBy(() -> new ControlLimits(0, 10, Set.of()))
                .hasMessage("catalog.max-tasks (0) must be >= 1");
        assertThatThrownBy(() -> new ControlLimits(10, -1, Set.of()))
                .hasMessage("catalog.max-edges (-1) must be >= 0");
        assertThatThrownBy(() -> new ControlLimits(10, 10, Set.of(" ")))
                .hasMessage("cluster.servers holds a blank server id (' ')");
    }

    /** A chain of {@code n} tasks ({@code n - 1} edges). */
    static ModelCatalogEntry chain(String model, int n) {
        List<CatalogTask> tasks = new ArrayList<>();
        List<CatalogEdge> edges = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(new CatalogTask("t" + i, 1.0e6));
            if (i > 0) {
                edges.add(new CatalogEdge("t" + (i - 1), "t" + i, 1.0e3));
            }
        }
        return ModelCatalogEntry.of(model, new CatalogDag(model, tasks, edges));
    }

    static ServerTelemetry status(String serverId) {
        return ServerTelemetry.of(serverId, true, 1.0e12, 0, List.of(), null, 1_700_000_000_000L);
    }
}
