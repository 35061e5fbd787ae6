package dev.nona.sim.modelaware;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.sim.modelaware.policy.ModelAwarePolicies;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Invariants of every run, on random small clusters, models, memory limits, scripts and policies. */
final class ModelAwareSimulatorPropertiesTest {
    private static final List<String> POLICIES = List.copyOf(ModelAwarePolicies.names());

    @Property(tries = 300, seed = "7")
    void everyRun_completesEveryRequest_andLeavesNothingInFlight(@ForAll long seed,
                                                                 @ForAll @IntRange(min = 0, max = 4) int policy) {
        SplittableRandom rnd = new SplittableRandom(seed);
        ThesisWorkload w = randomWorkload(rnd);
        ModelAwareSimulator sim = new ModelAwareSimulator(w, POLICIES.get(policy), seed);

        ModelAwareResult r = sim.run();

        assertThat(r.requests()).isEqualTo(w.totalRequests());
        long modelsUsed = w.requests().stream().map(RequestGroup::model).distinct().count();
        assertThat(r.coldStarts()).isGreaterThanOrEqualTo(modelsUsed);
        for (String server : sim.registry().servers()) {
            assertThat(sim.registry().ongoing(server)).isZero();
            assertThat(sim.hasRoom(server, w.cluster().coresPerServer())).isTrue();
        }
        double fastest = w.models().stream().mapToDouble(m -> m.inferenceSeconds() + m.preSeconds() + m.postSeconds())
                .min().orElseThrow();
        assertThat(r.latenciesSeconds()).allMatch(l -> l >= fastest - 1e-9);
        assertThat(r.makespanSeconds()).isGreaterThanOrEqualTo(r.latenciesSeconds().stream()
                .mapToDouble(Double::doubleValue).max().orElseThrow() - 1e-9);
        assertThat(r.routes().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(w.totalRequests());
    }

    private static ThesisWorkload randomWorkload(SplittableRandom rnd) {
        int cores = 1 + rnd.nextInt(4);
        ThesisCluster cluster = new ThesisCluster(1 + rnd.nextInt(5), cores, 1000, rnd.nextDouble() * 3, 1 + rnd.nextInt(3));
        List<SimModel> models = new ArrayList<>();
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            models.add(new SimModel("m" + i, 200 + rnd.nextInt(800), rnd.nextDouble() * 5, 0.1 + rnd.nextDouble(),
                    rnd.nextDouble(), rnd.nextDouble() * 3));
        }
        List<RequestGroup> groups = new ArrayList<>();
        for (int g = rnd.nextInt(4); g >= 0; g--) {
            groups.add(new RequestGroup("m" + rnd.nextInt(n), 1 + rnd.nextInt(6), 1 + rnd.nextInt(cores),
                    rnd.nextBoolean() ? RequestGroup.Arrival.CONCURRENT : RequestGroup.Arrival.SEQUENTIAL));
        }
        return new ThesisWorkload(cluster, models, groups);
    }
}
