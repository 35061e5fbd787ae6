package dev.nona.sim.policy;

import dev.nona.sim.policy.baseline.LocalPolicy;
import dev.nona.sim.policy.baseline.OpportunisticPolicy;
import dev.nona.sim.policy.baseline.RandomPolicy;
import dev.nona.sim.policy.expert.ExpertPolicy;
import dev.nona.sim.policy.live.ColocationJobPolicy;
import dev.nona.sim.policy.live.JsqPolicy;
import dev.nona.sim.policy.live.LeastExpectedFinishPolicy;
import dev.nona.sim.policy.live.P2cPolicy;
import dev.nona.sim.policy.live.SparkFairPolicy;
import dev.nona.sim.policy.nona.NonaPolicy;
import dev.nona.sim.policy.nona.NonaStarPolicy;
import dev.nona.sim.policy.table.TablePolicy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The policies by name. Adding one: its class, one {@code register} line here, and its name in
 * {@code dev/nona/sim/policies.txt} (the policies experiments compare).
 */
public final class PolicyRegistry {
    private static final Map<String, Policy.Factory> FACTORIES = new LinkedHashMap<>();

    static {
        register("nona", NonaPolicy::create);
        register("nona-star", NonaStarPolicy::create);
        register("nona-jsq", NonaPolicy::createWithLiveMapping);
        register("nona-controller", NonaPolicy::createWithControllerMapping);
        register("nona-controller-uniform", NonaPolicy::createUniformController);
        register("nona-controller-p2", NonaPolicy::createWithControllerMappingTwoSubtasks);
        register("nona-stale", NonaPolicy::createWithStaleMapping);
        register("expert", ExpertPolicy::create);
        register("expert-jsq", ExpertPolicy::createWithLiveMapping);
        register("random", c -> new RandomPolicy(c.random()));
        register("opportunistic", c -> new TablePolicy(OpportunisticPolicy.table(c.workload()), c.random()));
        register("spark-fair", c -> new SparkFairPolicy(c.random()));
        register("local", c -> new LocalPolicy(c.random()));
        register("jsq", c -> new JsqPolicy(c.random()));
        register("p2c", c -> new P2cPolicy(c.random()));
        register("least-expected-finish", c -> new LeastExpectedFinishPolicy(c.random()));
        register(ColocationJobPolicy.NAME, c -> ColocationJobPolicy.withoutQueuing(c.random()));
        register(ColocationJobPolicy.QUEUING_NAME, c -> ColocationJobPolicy.withQueuing(c.random()));
    }

    private PolicyRegistry() {
    }

    private static void register(String name, Policy.Factory factory) {
        FACTORIES.put(name, factory);
    }

    public static Set<String> names() {
        return FACTORIES.keySet();
    }

    /** A new policy instance for one run. */
    public static Policy create(String name, PolicyContext context) {
        Policy.Factory factory = FACTORIES.get(name);
        if (factory == null) {
            throw new IllegalArgumentException("policy '" + name + "' is unknown; known: " + String.join(", ", names()));
        }
        return factory.create(context);
    }

    /** The policies experiments compare, in order, from {@code dev/nona/sim/policies.txt}. */
    public static List<String> experimentPolicies() {
        List<String> out = new ArrayList<>();
        try (InputStream in = PolicyRegistry.class.getResourceAsStream("/dev/nona/sim/policies.txt");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String name = line.strip();
                if (!name.isEmpty() && !name.startsWith("#")) {
                    if (!FACTORIES.containsKey(name)) {
                        throw new IllegalStateException("policies.txt names unknown policy '" + name + "'");
                    }
                    out.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
