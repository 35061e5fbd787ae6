package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.Triplet;
import dev.nona.workload.Background;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** The must-show behaviour of Section II (Fig. 1, Table I) of the Nona paper. */
final class Figure1Test {

    enum Model {
        PAPER(CostModel.PAPER), DEFAULT(CostModel.DEFAULT);
        final CostModel costModel;

        Model(CostModel m) {
            this.costModel = m;
        }
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void figure1_lightLink_splitsWithRootAndSinkOnTwosServer(Model model) {
        Solution s = NonaOptimizer.solve(Figure1.problem(10, Background.NONE, model.costModel));

        Solution.SubgraphResult sg = s.job("f").subgraphs().get(0);
        assertThat(s.feasible()).isTrue();
        assertThat(sg.probability(Figure1.SPLIT_WITH_2)).isGreaterThanOrEqualTo(0.9);
        assertThat(sg.probability(Figure1.SPLIT_WITH_3)).isZero();
        assertThat(s.rho()).isLessThan(0.05);
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void figure1_busyLink_mostlyKeepsJobOnOneServer(Model model) {
        Background busy = new Background(Background.Comm.ofLoad(0.95, 1e7, Figure1.MU), Background.Compute.NONE);
        Solution s = NonaOptimizer.solve(Figure1.problem(10, busy, model.costModel));

        Solution.SubgraphResult sg = s.job("f").subgraphs().get(0);
        assertThat(s.feasible()).isTrue();
        assertThat(sg.probability(Figure1.TOGETHER)).isGreaterThanOrEqualTo(0.5);
        assertThat(sg.probability(Figure1.SPLIT_WITH_3)).isZero();
    }

    @Test
    void workedExample_pureSplitWith2_jctIs14msPlusTwoLinkWaits() {
        // beta = 10/s; cut edges 1->3 and 3->4, S = 1 ms each: rho = 10 * 2e-3 = 0.02,
        // sum lambda S^2 = 10 * 2e-6 = 2e-5, phi = 2e-5 / (2 * 0.98); tau = 1 + max(10, 1 + 10 + 1) + 1 ms + 2 phi
        NonaProblem p = Figure1.problem(10, Background.NONE, CostModel.PAPER);
        Solution s = NonaOptimizer.evaluate(p, List.of(List.of(pure(Figure1.SPLIT_WITH_2))));

        double phi = 2e-5 / (2 * 0.98);
        assertThat(s.rho()).isCloseTo(0.02, within(1e-12));
        assertThat(s.phi()).isCloseTo(phi, within(1e-12));
        assertThat(s.job("f").predictedJctSeconds()).isCloseTo(0.014 + 2 * phi, within(1e-12));
        assertThat(s.objective()).isCloseTo(10 * (0.014 + 2 * phi), within(1e-10));
    }

    @Test
    void workedExample_together_jctIs22ms() {
        Solution s = NonaOptimizer.evaluate(Figure1.problem(10, Background.NONE, CostModel.PAPER),
                List.of(List.of(pure(Figure1.TOGETHER))));

        assertThat(s.rho()).isZero();
        assertThat(s.job("f").predictedJctSeconds()).isCloseTo(0.022, within(1e-12));
    }

    /**
     * Section II of the Nona paper, one job f alone on two servers (so no queueing: the rate is tiny). Allocation 1
     * (Fig. 1b: task 2 away from the root and sink) sends 200 MB, 20 ms on 80 Gbps, "about 60% of the total JCT":
     * 1 + (10 + 10 + 10) + 1 = 32 ms. Allocation 2 (Fig. 1c: task 3 away) sends 20 MB, 2 ms, "about 15%":
     * 1 + max(10, 1 + 10 + 1) + 1 = 14 ms.
     */
    @Test
    void section2_singleJob_allocation1Takes32msOf20msTransfers_allocation2Takes14msOf2ms() {
        double beta = 1e-9;
        NonaProblem p = Figure1.problem(beta, Background.NONE, CostModel.PAPER);
        Solution one = NonaOptimizer.evaluate(p, List.of(List.of(pure(Figure1.SPLIT_WITH_3))));
        Solution two = NonaOptimizer.evaluate(p, List.of(List.of(pure(Figure1.SPLIT_WITH_2))));

        assertThat(one.job("f").predictedJctSeconds()).isCloseTo(0.032, within(1e-12));
        assertThat(one.rho() / beta).as("seconds of link time per job").isCloseTo(0.020, within(1e-12));
        assertThat(two.job("f").predictedJctSeconds()).isCloseTo(0.014, within(1e-12));
        assertThat(two.rho() / beta).as("seconds of link time per job").isCloseTo(0.002, within(1e-12));
    }

    @Test
    void workedExample_serverQueueing_entryOnceThenReentryStretch() {
        // By hand: 2 servers; tasks of 1, 10, 10, 1 ms at 10/s each: u = 10 * 0.022 / 2 = 0.11, f = 0.11 / 0.89 = 11/89;
        // R = 10 * (1e-6 + 1e-4 + 1e-4 + 1e-6) / 2 / 2 = 5.05e-4; task 1 enters (u_in = 10 * 1e-3 / 2 = 0.005),
        // tasks 2, 3, 4 re-enter: queued re-entry work f * 10 * 2.01e-4 / 2 = 1.242135e-4;
        // W = (5.05e-4 + 1.242135e-4) / 0.995 = 6.3237536e-4 s.
        // Together on one server: JCT = 22 ms + W + f * (10 + 10 + 1) ms = 22 + 0.63237536 + 2.59550562 ms = 25.2278809779 ms.
        Solution s = NonaOptimizer.evaluate(Figure1.problem(10, Background.NONE, CostModel.DEFAULT),
                List.of(List.of(pure(Figure1.TOGETHER))));

        assertThat(s.serverUtilisation()).isCloseTo(0.11, within(1e-12));
        assertThat(s.serverWaitSeconds()).isCloseTo(6.3237536e-4, within(1e-12));
        assertThat(s.job("f").predictedJctSeconds()).isCloseTo(25.2278809779e-3, within(1e-12));
    }

    @Test
    void workedExample_controllerMapping_pooledWaitOnceThenRemotePartWait() {
        // By hand: the pooled queue's customers are whole requests of 22 ms at 10/s on N = 2 servers: a = 0.22, u = 0.11.
        // Erlang B: B(1) = 0.22 / 1.22 = 0.18032787, B(2) = 0.22 B(1) / (2 + 0.22 B(1)) = 0.01945025;
        // C = B(2) / (1 - 0.11 (1 - B(2))) = 0.02180180; one size, C_s^2 = 0: m = (1 + 0) / 2 * 0.022 / (2 * 0.89)
        // = 6.17978e-3 s; W = C m = 1.347302e-4 s.
        double b1 = 0.22 / 1.22;
        double b2 = 0.22 * b1 / (2 + 0.22 * b1);
        double c = b2 / (1 - 0.11 * (1 - b2));
        double m = 0.5 * 0.022 / (2 * 0.89);
        double w = c * m;
        assertThat(c).isCloseTo(0.02180180, within(1e-8));
        assertThat(w).isCloseTo(1.347302e-4, within(1e-10));
        // Together: the request waits once, then runs its 22 ms back to back: 22 ms + W.
        Solution together = NonaOptimizer.evaluate(Figure1.problem(10, Background.NONE, CostModel.CONTROLLER_MAPPING),
                List.of(List.of(pure(Figure1.TOGETHER))));
        assertThat(together.serverWaitSeconds()).isCloseTo(w, within(1e-15));
        assertThat(together.job("f").predictedJctSeconds()).isCloseTo(0.022 + w, within(1e-15));
        // Split, root and sink with 2: part {3}'s server was the longest idle one when the request arrived; it is taken
        // again once the arrivals since (Poisson(lambda Delta), Delta = half the request's work = 11 ms) reach the idle
        // servers (N - Poisson(a) busy): P = P(Poisson(a + lambda Delta) >= N) = P(Poisson(0.22 + 0.11) >= 2)
        // = 1 - e^{-0.33} (1 + 0.33) = 4.383143e-2. If taken, the part waits the mean residual of a task in service,
        // R / u = (10 * 2.02e-4 / 2 / 2) / 0.11 = 4.590909e-3 s, and the chain it meets waits its 10 ms of work (charged
        // to the choice). Fork-join: the remote branch (1 + 10 + 1 ms + 2 phi) is later than the root part's (10 ms)
        // even without its wait, so E[max] = 12 ms + 2 phi + P R/u, and JCT = 1 + W + E[max] + P * 10 ms + 1 ms.
        Solution split = NonaOptimizer.evaluate(Figure1.problem(10, Background.NONE, CostModel.CONTROLLER_MAPPING),
                List.of(List.of(pure(Figure1.SPLIT_WITH_2))));
        double phi = 2e-5 / (2 * 0.98);
        double reused = 1 - Math.exp(-0.33) * 1.33;
        double residual = 10 * 2.02e-4 / 2 / 2 / 0.11;
        assertThat(reused).isCloseTo(4.383143e-2, within(1e-8));
        assertThat(residual).isCloseTo(4.590909e-3, within(1e-9));
        assertThat(split.phi()).isCloseTo(phi, within(1e-15));
        assertThat(split.job("f").predictedJctSeconds()).isCloseTo(0.014 + 2 * phi + w + reused * residual + reused * 0.010,
                within(1e-15));
    }

    /**
     * The least-cut rule: on Fig. 1 at 10 jobs/s under the controller's mapping, splitting {3} off cuts the JCT from
     * 22 ms + W to about 14 ms + W (a gain of about 36%). A required gain of 0.5% (the default) or 0 keeps the split;
     * one of 50% returns the least-cut theta (together), with the together objective.
     */
    @Test
    void minSplitGain_keepsTheLeastCutThetaUnlessTheOptimumGainsMore() {
        NonaProblem p = Figure1.problem(10, Background.NONE, CostModel.CONTROLLER_MAPPING);
        NonaOptimizer.Options base = NonaOptimizer.Options.DEFAULT;
        Solution byDefault = NonaOptimizer.solve(p);
        Solution exact = NonaOptimizer.solve(p, new NonaOptimizer.Options(base.gridPoints(), base.refineSteps(), base.polishSteps(), 0));
        Solution strict = NonaOptimizer.solve(p, new NonaOptimizer.Options(base.gridPoints(), base.refineSteps(), base.polishSteps(), 0.5));
        Solution together = NonaOptimizer.evaluate(p, List.of(List.of(pure(Figure1.TOGETHER))));
        assertThat(byDefault.job("f").subgraphs().get(0).probability(Figure1.SPLIT_WITH_2)).isGreaterThanOrEqualTo(0.9);
        assertThat(byDefault.objective()).isEqualTo(exact.objective());
        assertThat(exact.objective()).isLessThan(together.objective() * 0.7);
        assertThat(strict.job("f").subgraphs().get(0).probability(Figure1.TOGETHER)).isEqualTo(1.0);
        assertThat(strict.objective()).isCloseTo(together.objective(), within(1e-15));
        assertThat(NonaOptimizer.Options.DEFAULT.minSplitGain(CostModel.CONTROLLER_MAPPING)).isEqualTo(0.005);
        assertThat(NonaOptimizer.Options.DEFAULT.minSplitGain(CostModel.PAPER)).isZero();
        assertThat(NonaOptimizer.Options.DEFAULT.minSplitGain(CostModel.DEFAULT)).isZero();
        Assertions.assertThatThrownBy(() -> new NonaOptimizer.Options(24, 40, 10, 1.0))
                .hasMessageContaining("minSplitGain (1.0)");
    }

    @Test
    void infeasible_backgroundAloneSaturatesLink_reportsSmallestRho() {
        Background saturating = new Background(Background.Comm.ofLoad(1.2, 1e7, Figure1.MU), Background.Compute.NONE);
        Solution s = NonaOptimizer.solve(Figure1.problem(10, saturating, CostModel.PAPER));

        assertThat(s.feasible()).isFalse();
        assertThat(s.diagnostic()).contains("link overloaded");
        assertThat(s.rho()).isCloseTo(1.2, within(1e-9));
        assertThat(s.objective()).isInfinite();
        assertThat(s.job("f").subgraphs().get(0).probability(Figure1.TOGETHER)).isEqualTo(1.0);
    }

    @Test
    void infeasible_serversOverloaded_isReportedNotThrown() {
        // 22 ms of compute per job over 2 servers: 100/s needs u = 1.1
        Solution s = NonaOptimizer.solve(Figure1.problem(100, Background.NONE, CostModel.DEFAULT));

        assertThat(s.feasible()).isFalse();
        assertThat(s.diagnostic()).contains("servers overloaded");
    }

    @Test
    void deterministic_sameProblem_sameTheta() {
        NonaProblem p = Figure1.problem(40, new Background(Background.Comm.ofLoad(0.5, 1e7, Figure1.MU), null), CostModel.DEFAULT);
        assertThat(NonaOptimizer.solve(p).job("f").subgraphs()).isEqualTo(NonaOptimizer.solve(p).job("f").subgraphs());
    }

    static double[] pure(Triplet t) {
        double[] theta = new double[Figure1.TRIPLETS.size()];
        theta[Figure1.TRIPLETS.indexOf(t)] = 1;
        return theta;
    }
}
