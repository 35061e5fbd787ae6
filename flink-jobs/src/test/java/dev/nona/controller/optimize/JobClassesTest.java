package dev.nona.controller.optimize;

import static dev.nona.workload.ServerClass.UNBOUNDED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.catalog.CatalogDags;
import dev.nona.dag.DagAnalysis;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.Problems;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class JobClassesTest {
    private static CatalogDag renamed(CatalogDag dag, String name) {
        return new CatalogDag(name, dag.tasks(), dag.edges());
    }

    @Test
    void modelsOfOneGraph_shareItsAnalysis_eachUnderItsOwnName() {
        JobClasses classes = new JobClasses();
        JobClass a = classes.of("a", renamed(TestingCluster.figure1(), "a"), 2.0, UNBOUNDED);
        JobClass b = classes.of("b", renamed(TestingCluster.figure1(), "b"), 3.0, UNBOUNDED);
        assertThat(classes.graphs()).isEqualTo(1);
        assertThat(b.name()).isEqualTo("b");
        assertThat(b.ratePerSecond()).isEqualTo(3.0);
        assertThat(a.name()).isEqualTo("a");
        JobClass own = Problems.jobClass("b", 3.0,
                DagAnalysis.analyse(CatalogDags.toModelDag("b", renamed(TestingCluster.figure1(), "b"))));
        assertThat(b).as("the shared analysis equals the model's own").isEqualTo(own);
    }

    @Test
    void anotherGraph_orChangedOps_isAnalysedOnItsOwn() {
        JobClasses classes = new JobClasses();
        CatalogDag fig1 = TestingCluster.figure1();
        classes.of("a", fig1, 1.0, UNBOUNDED);
        classes.of("c", TestingCluster.chain(), 1.0, UNBOUNDED);
        List<CatalogTask> heavier = new ArrayList<>(fig1.tasks());
        heavier.set(1, new CatalogTask("t2", 2e10));
        JobClass d = classes.of("d", new CatalogDag("d", heavier, fig1.edges()), 1.0, UNBOUNDED);
        assertThat(classes.graphs()).isEqualTo(3);
        assertThat(d).isEqualTo(Problems.jobClass("d", 1.0,
                DagAnalysis.analyse(CatalogDags.toModelDag("d", new CatalogDag("d", heavier, fig1.edges())))));
    }

    @Test
    void retain_forgetsGraphsNoModelHasAnyMore() {
        JobClasses classes = new JobClasses();
        classes.of("a", renamed(TestingCluster.figure1(), "a"), 1.0, UNBOUNDED);
        classes.of("b", renamed(TestingCluster.figure1(), "b"), 1.0, UNBOUNDED);
        classes.of("c", TestingCluster.chain(), 1.0, UNBOUNDED);
        classes.retain(Set.of("b"));
        assertThat(classes.graphs()).as("b still holds figure 1's graph").isEqualTo(1);
        classes.retain(Set.of());
        assertThat(classes.graphs()).isZero();
    }

    @Test
    void aChainNoServerHoldsWhole_isCutForTheLargestMemory_andWholeWhereItFits() {
        List<CatalogTask> tasks = List.of(new CatalogTask("a", 1e9, 0.0), new CatalogTask("b", 1e9, 100.0),
                new CatalogTask("c", 1e9, 100.0), new CatalogTask("d", 1e9, 100.0), new CatalogTask("e", 1e9, 10.0));
        List<CatalogEdge> edges = List.of(new CatalogEdge("a", "b", 5), new CatalogEdge("b", "c", 1),
                new CatalogEdge("c", "d", 50), new CatalogEdge("d", "e", 5));
        CatalogDag dag = new CatalogDag("big", tasks, edges);
        JobClasses classes = new JobClasses();

        JobClass whole = classes.of("big", dag, 1.0, 400);
        JobClass cut = classes.of("big", dag, 1.0, 250);

        assertThat(whole.nodes()).hasSize(1);
        assertThat(whole.largestNodeBytes()).isEqualTo(310);
        // pieces of at most 250 - 10 among b, c, d (300): b | c d (1 byte crosses) rather than b c | d (50)
        assertThat(cut.nodes().values()).extracting(n -> n.originalTasks())
                .containsExactly(List.of("a"), List.of("b"), List.of("c", "d"), List.of("e"));
        assertThat(cut.largestNodeBytes()).isLessThanOrEqualTo(250);
        assertThat(classes.of("big", dag, 2.0, 250)).as("cached for that memory").isEqualTo(cut.withRate(2.0));
        assertThat(classes.graphs()).as("the graph whole and cut").isEqualTo(2);
        assertThat(classes.of("big", dag, 1.0, 400).nodes()).hasSize(1);
    }
}
