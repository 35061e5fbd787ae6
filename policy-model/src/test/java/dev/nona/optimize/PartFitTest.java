package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.dag.Triplet;
import dev.nona.placement.PlacementTable;
import dev.nona.placement.PlacementTables;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.DagSource;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.ServerClass;
import dev.nona.workload.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Memory admissibility, packing and unplaceable models, on Fig. 1 with weights (bytes) 10, 100, 50, 20. */
final class PartFitTest {

    static JobClass job(String name, double rate, double scale) {
        JobClass f = Figure1.job(rate);
        Map<String, Double> bytes = Map.of("t1", 10 * scale, "t2", 100 * scale, "t3", 50 * scale, "t4", 20 * scale);
        return new JobClass(name, rate, f.nodes(), f.source(), f.subgraphs(), bytes);
    }

    static Cluster cluster(ServerClass... classes) {
        return Cluster.ofClasses(List.of(classes), Figure1.MU, null);
    }

    @Test
    void levels_andServersFitting_countNestedClasses() {
        PartFit fit = PartFit.of(cluster(new ServerClass("small", 2, 1e12, 100), new ServerClass("big", 1, 1e12, 300)));
        assertThat(fit.unbounded()).isFalse();
        assertThat(fit.level(50)).isZero();
        assertThat(fit.level(100)).isZero();
        assertThat(fit.level(150)).isEqualTo(1);
        assertThat(fit.level(301)).isEqualTo(-1);
        assertThat(fit.serversFitting(50)).isEqualTo(3);
        assertThat(fit.serversFitting(150)).isEqualTo(1);
        assertThat(fit.serversFitting(400)).isZero();
    }

    @Test
    void hall_partsMustGoToDistinctServersThatHoldThem() {
        PartFit fit = PartFit.of(cluster(new ServerClass("small", 2, 1e12, 100), new ServerClass("big", 1, 1e12, 300)));
        assertThat(fit.fits(new double[] {150, 50})).isTrue();
        assertThat(fit.fits(new double[] {150, 150})).as("two parts need the one big server").isFalse();
        assertThat(fit.fits(new double[] {50, 50, 50})).isTrue();
        assertThat(fit.fits(new double[] {50, 50, 50, 50})).as("four parts, three servers").isFalse();
    }

    @Test
    void partBytes_sinkWithItsPart_sourceWithTheRootsPartOfTheFirstSubgraph() {
        JobClass j = job("f", 1, 1);
        // parts {2} and {3}: root and source with {2}, sink with {3}: 100 + 10 and 50 + 20
        assertThat(PartFit.partBytes(j, 0, new Triplet(List.of(List.of("2"), List.of("3")), 0, 1))).containsExactly(110, 70);
        assertThat(PartFit.partBytes(j, 0, Figure1.TOGETHER)).containsExactly(180);
    }

    @Test
    void modelLargerThanEveryServer_comesOutSplitIntoPartsThatFit() {
        // two servers of 120 bytes: whole (180) does not fit; split with the sink on {2}'s side (130) neither
        NonaProblem p = new NonaProblem(List.of(job("f", 10, 1)), cluster(new ServerClass("s", 2, 1e12, 120)), Background.NONE,
                CostModel.CONTROLLER_MAPPING);
        Solution s = NonaOptimizer.solve(p);
        assertThat(s.feasible()).isTrue();
        assertThat(s.unplaceable()).isEmpty();
        Solution.SubgraphResult sr = s.job("f").subgraphs().get(0);
        PartFit fit = PartFit.of(p.cluster());
        assertThat(sr.triplets()).isNotEmpty().allSatisfy(t -> {
            assertThat(t.parts()).hasSize(2);
            assertThat(fit.fits(PartFit.partBytes(p.jobs().get(0), 0, t))).isTrue();
        });
        assertThat(sr.triplets()).doesNotContain(Figure1.TOGETHER, Figure1.SPLIT_WITH_2);
        assertThat(sr.theta().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(1.0, org.assertj.core.api.Assertions.within(1e-12));
    }

    @Test
    void chainModelLargerThanEveryServer_isCutIntoPiecesThatFit_notUnplaceable() {
        // VGG-16 is a chain: contraction makes it one node of all its 553 MB. On servers of 300 MB it used to be
        // unplaceable although each of its tasks fits; the workload path analyses it for the largest memory
        ModelSpec vgg = new ModelSpec("vgg16", new DagSource.Zoo("vgg16"), 5, null, 553e6);
        Cluster small = cluster(new ServerClass("s", 8, 1e12, 300e6));
        NonaProblem p = Problems.fromWorkload(new Workload(small, List.of(vgg), Background.NONE), CostModel.CONTROLLER_MAPPING);
        JobClass job = p.jobs().get(0);
        assertThat(job.largestNodeBytes()).isLessThanOrEqualTo(300e6);
        assertThat(job.totalBytes()).isCloseTo(553e6, org.assertj.core.api.Assertions.within(1.0));

        Solution s = NonaOptimizer.solve(p);

        assertThat(s.unplaceable()).isEmpty();
        assertThat(s.job("vgg16").predictedJctSeconds()).isFinite();
        PartFit fit = PartFit.of(small);
        assertThat(s.job("vgg16").subgraphs()).isNotEmpty().allSatisfy(sr -> {
            int g = s.job("vgg16").subgraphs().indexOf(sr);
            for (int i = 0; i < sr.triplets().size(); i++) {
                if (sr.theta().get(i) > 0) {
                    assertThat(fit.fits(PartFit.partBytes(job, g, sr.triplets().get(i)))).isTrue();
                }
            }
        });
        assertThat(PlacementTables.from(p, s, 1, 0).models()).extracting(PlacementTable.ModelPlacement::name)
                .containsExactly("vgg16");
        // on servers that hold it whole nothing is cut
        NonaProblem big = Problems.fromWorkload(new Workload(cluster(new ServerClass("b", 8, 1e12, 600e6)), List.of(vgg),
                Background.NONE), CostModel.CONTROLLER_MAPPING);
        assertThat(big.jobs().get(0).nodes()).hasSize(1);
    }

    /**
     * A model of several subgraphs larger than every server, each subgraph of which fits one alone: a server runs the sink
     * side of one subgraph and the root side of the next (the sampler's slots), so a table of choices that each fit
     * could still put the whole model on one server (every subgraph local). Over every combination of the choices the
     * solver may draw, the largest chain a server runs fits the largest memory: the worst case, subgraph by subgraph,
     * of what a chain carries into the next boundary and what it holds where it ends.
     */
    @Test
    void modelOfSeveralSubgraphsLargerThanEveryServer_noCombinationOfItsChoicesPutsMoreOnAServerThanItHolds() {
        for (String zoo : List.of("resnet18", "densenet121")) {
            ModelSpec spec = new ModelSpec(zoo, new DagSource.Zoo(zoo), 5, null, 2.5e9);
            Cluster small = cluster(new ServerClass("s", 16, 1e12, 2e9));
            NonaProblem p = Problems.fromWorkload(new Workload(small, List.of(spec), Background.NONE),
                    CostModel.CONTROLLER_MAPPING);
            JobClass job = p.jobs().get(0);
            assertThat(job.subgraphs()).as(zoo).hasSizeGreaterThan(1);
            PartFit fit = PartFit.of(small);
            assertThat(fit.chainBudgets(job)).as(zoo).isNotNull();

            assertThat(largestChain(job, fit, (g, t) -> fit.admissible(job, g, t))).as(zoo).isLessThanOrEqualTo(2e9);
            if (zoo.equals("resnet18")) { // its subgraphs' choices that each fit alone include every one local
                assertThat(largestChain(job, fit, (g, t) -> fit.fits(PartFit.partBytes(job, g, t))))
                        .as(zoo + ": choices that each fit alone").isGreaterThan(2e9);
            }

            Solution s = NonaOptimizer.solve(p);
            assertThat(s.unplaceable()).as(zoo).isEmpty();
            assertThat(s.job(zoo).subgraphs()).allSatisfy(sr -> assertThat(sr.triplets()).isNotEmpty());
        }
    }

    /**
     * The largest bytes one server runs for a request of {@code job}, over every combination of the choices
     * {@code allowed} admits: a chain starts with the source or a sink's part apart from its root's, takes in each
     * subgraph whose choice keeps its sink with its root that whole part, and ends with a root's part or the last sink.
     */
    private static double largestChain(JobClass job, PartFit fit, java.util.function.BiPredicate<Integer, Triplet> allowed) {
        double carried = 0; // the most a chain brings into the current subgraph
        double largest = 0;
        for (int g = 0; g < job.subgraphs().size(); g++) {
            double next = 0;
            for (Triplet t : job.subgraphs().get(g).triplets()) {
                if (!allowed.test(g, t)) {
                    continue;
                }
                double[] b = PartFit.partBytes(job, g, t);
                double root = carried + b[t.rootPart()];
                if (t.rootPart() == t.sinkPart()) {
                    next = Math.max(next, root);
                } else {
                    largest = Math.max(largest, root);
                    next = Math.max(next, b[t.sinkPart()]);
                }
            }
            carried = next;
        }
        return Math.max(largest, carried);
    }

    @Test
    void enumerationBoundThatKeepsOnlyTheWholeChoice_getsPackedChoicesThatFit() {
        JobClass only = job("f", 10, 1).withSubgraphs(List.of(new SubgraphChoices(Figure1.SUBGRAPH, List.of(Figure1.TOGETHER))));
        NonaProblem p = new NonaProblem(List.of(only), cluster(new ServerClass("s", 2, 1e12, 120)), Background.NONE,
                CostModel.CONTROLLER_MAPPING);
        // capacity 120 - 20 - 10 = 90 cannot take {2} (100); 120 - 20 = 100 packs {2}, {3}; then every (k, l) that fits:
        // (0,0): 130 no; (0,1): 110, 70; (1,0): 120, 60; (1,1): 100, 80
        List<Triplet> packed = PartFit.of(p.cluster()).packed(only, 0);
        List<List<String>> parts = List.of(List.of("2"), List.of("3"));
        assertThat(packed).containsExactly(new Triplet(parts, 0, 1), new Triplet(parts, 1, 0), new Triplet(parts, 1, 1));
        Solution s = NonaOptimizer.solve(p);
        assertThat(s.feasible()).isTrue();
        assertThat(s.job("f").subgraphs().get(0).triplets()).containsExactlyElementsOf(packed);
    }

    @Test
    void taskLargerThanEveryServer_isUnplaceable_andTheRestIsSolved() {
        // 90 bytes per server: task 2 (100 bytes) fits nowhere; model "g" (a tenth of the bytes) fits whole
        NonaProblem p = new NonaProblem(List.of(job("f", 10, 1), job("g", 10, 0.1)), cluster(new ServerClass("s", 2, 1e12, 90)),
                Background.NONE, CostModel.CONTROLLER_MAPPING);
        Solution s = NonaOptimizer.solve(p);
        assertThat(s.unplaceable()).containsExactly("f");
        assertThat(s.unplaceableReasons().get(0)).contains("model 'f'", "task '2'", "100.0 bytes", "90.0 bytes");
        assertThat(s.isUnplaceable("f")).isTrue();
        assertThat(s.feasible()).isTrue();
        assertThat(s.jobs()).extracting(Solution.JobResult::name).containsExactly("f", "g");
        assertThat(s.job("f").predictedJctSeconds()).isInfinite();
        assertThat(s.job("f").subgraphs().get(0).triplets()).isEmpty();
        assertThat(s.job("g").predictedJctSeconds()).isFinite();
        Solution alone = NonaOptimizer.solve(new NonaProblem(List.of(job("g", 10, 0.1)), p.cluster(), Background.NONE,
                CostModel.CONTROLLER_MAPPING));
        assertThat(s.objective()).isEqualTo(alone.objective());
        assertThat(PlacementTables.from(p, s, 1, 0).models()).extracting(PlacementTable.ModelPlacement::name).containsExactly("g");
    }

    @Test
    void noModelPlaceable_isAnInfeasibleSolution_notAnException() {
        NonaProblem p = new NonaProblem(List.of(job("f", 10, 1)), cluster(new ServerClass("s", 2, 1e12, 90)), Background.NONE,
                CostModel.CONTROLLER_MAPPING);
        Solution s = NonaOptimizer.solve(p);
        assertThat(s.feasible()).isFalse();
        assertThat(s.unplaceable()).containsExactly("f");
        assertThat(s.diagnostic()).contains("no model fits", "task '2'");
    }

    @Test
    void unboundedMemory_restrictsNothing() {
        NonaProblem p = new NonaProblem(List.of(job("f", 10, 1)), Figure1.CLUSTER, Background.NONE, CostModel.CONTROLLER_MAPPING);
        PartFit.Restricted r = PartFit.of(p.cluster()).restrict(p);
        assertThat(r.placeable()).isSameAs(p);
        assertThat(r.unplaceable()).isEmpty();
    }
}
