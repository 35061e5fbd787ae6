package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class StartTableFitTest {
    private static final Map<String, CatalogDag> CATALOG = Map.of("fig1", TestingCluster.figure1(),
            "chain", TestingCluster.figure1());
    private static final Set<String> UP = Set.of("s0");

    private static String misfit(ControllerTable t, Map<String, CatalogDag> catalog, Set<String> up) {
        return StartTableFit.misfit(t, "c1", "c1", catalog, up);
    }

    /** {@code t} solved for {@code servers}. */
    private static ControllerTable on(ControllerTable t, String... servers) {
        return new ControllerTable(t.version(), t.fallback(), t.createdAt(), t.cause(), t.rates(),
                new ClusterSnapshot(List.of(servers), 1e12, 1e10), t.objective(), t.linkLoad(), t.predictedJctSeconds(),
                t.tableJson(), t.replacedPredictedMeanJctSeconds(), t.dagDigests());
    }

    @Test
    void misfit_aSolvedTableOfThisController_forTheCatalogsDags_onTheClusterUp_fits() {
        assertThat(misfit(StartupSnapshotTest.table(3, "fig1", "chain"), CATALOG, UP)).isNull();
    }

    @Test
    void misfit_anotherControllersTable_orAFallback_doesNot() {
        ControllerTable t = StartupSnapshotTest.table(3, "fig1", "chain");
        assertThat(StartTableFit.misfit(t, "c2", "c1", CATALOG, UP)).contains("'c2'").contains("'c1'");
        ControllerTable fallback = new ControllerTable(3, true, 0, "test", t.rates(), t.cluster(), Double.NaN,
                Double.NaN, Map.of(), null, Double.NaN, t.dagDigests());
        assertThat(misfit(fallback, CATALOG, UP)).contains("fallback");
    }

    @Test
    void misfit_otherModels_aChangedDag_orNoFingerprints_doesNot() {
        assertThat(misfit(StartupSnapshotTest.table(3, "fig1"), CATALOG, UP))
                .isEqualTo("the newest table (version 3) was solved for models [fig1], the catalog holds [chain, fig1]");
        CatalogDag f = TestingCluster.figure1();
        CatalogDag costlier = new CatalogDag(f.name(), f.tasks().stream()
                .map(t -> new CatalogTask(t.id(), t.ops() * 2)).toList(), f.edges());
        Map<String, CatalogDag> changed = new LinkedHashMap<>(CATALOG);
        changed.put("chain", costlier);
        assertThat(misfit(StartupSnapshotTest.table(3, "fig1", "chain"), changed, UP))
                .isEqualTo("the newest table (version 3) was solved for other DAGs of [chain] than the catalog holds now");
        CatalogDag renamed = new CatalogDag("another-name", f.tasks(), f.edges());
        changed.put("chain", renamed);
        assertThat(misfit(StartupSnapshotTest.table(3, "fig1", "chain"), changed, UP))
                .as("the DAG's name is not the optimiser's business").isNull();
        ControllerTable old = StartupSnapshotTest.table(3, "fig1", "chain");
        old = new ControllerTable(3, false, 0, "test", old.rates(), old.cluster(), 0.5, 0.1, Map.of(), "{}");
        assertThat(misfit(old, CATALOG, UP)).contains("records no DAG fingerprints");
    }

    @Test
    void misfit_theCluster_unknown_orMostlyNew_doesNot_aFewServersComeOrGone_fits() {
        ControllerTable t = on(StartupSnapshotTest.table(3, "fig1", "chain"), "s0", "s1", "s2", "s3");
        assertThat(misfit(t, CATALOG, Set.of())).contains("no server reported up within cluster.liveness-timeout");
        assertThat(misfit(t, CATALOG, Set.of("s0", "s1", "s2"))).as("one gone").isNull();
        assertThat(misfit(t, CATALOG, Set.of("s0", "s1", "s2", "s3", "s4", "s5"))).as("two came").isNull();
        assertThat(misfit(t, CATALOG, Set.of("s0", "s1"))).as("half gone").isNull();
        assertThat(misfit(t, CATALOG, Set.of("s0"))).isEqualTo("the newest table (version 3) was solved for another "
                + "cluster: 1 of the 4 servers it was solved for are up now, of 1 up (at least half of each must be shared)");
        assertThat(misfit(t, CATALOG, Set.of("s0", "s1", "s2", "n0", "n1", "n2", "n3"))).as("mostly new")
                .contains("3 of the 4 servers").contains("of 7 up");
        assertThat(misfit(t, CATALOG, Set.of("n0", "n1", "n2", "n3"))).as("a new cluster").contains("0 of the 4");
    }

    @Test
    void servers_theLatestReportPerServer_madeWithinTheTimeout_upAndNotDrained() {
        StartTableFit.Servers s = new StartTableFit.Servers();
        s.report(TestingCluster.server("a", 9_000), 9_100);
        s.report(TestingCluster.server("b", 9_500), 9_600);
        s.report(TestingCluster.down("b", 9_800), 9_900); // its latest: down
        s.report(TestingCluster.server("c", 9_900), 9_950);
        s.report(TestingCluster.down("c", 9_700), 9_990); // older than its latest: ignored
        s.report(TestingCluster.server("d", 6_000), 9_990); // made too long ago, however late it arrived
        s.report(TestingCluster.server("e", 9_999), 6_500); // its clock ahead: made when it arrived, too long ago
        s.report(TestingCluster.server("f", 9_900), 9_950);
        assertThat(s.up(10_000, 3_000, Set.of("f"))).containsExactly("a", "c");
    }

    @Test
    void named_atMostFiveModels() {
        assertThat(StartTableFit.named(List.of("g", "f", "e", "d", "c", "b", "a")))
                .isEqualTo("[a, b, c, d, e, ... and 2 more]");
        assertThat(StartTableFit.named(Set.of("b", "a"))).isEqualTo("[a, b]");
    }
}
