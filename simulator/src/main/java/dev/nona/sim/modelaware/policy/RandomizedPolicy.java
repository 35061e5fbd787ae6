package dev.nona.sim.modelaware.policy;

import dev.nona.modelaware.ModelRegistry;
import dev.nona.sim.modelaware.policy.Candidates;
import dev.nona.sim.modelaware.policy.Decision;
import dev.nona.sim.modelaware.policy.ModelAwarePolicy;
import dev.nona.sim.modelaware.policy.ModelAwareRequest;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Base of the thesis's fixed policies: a registry name and the generator that breaks their random choices
 * (which server with free cores), plus the placement they share, "run the whole request on that server".
 */
abstract class RandomizedPolicy implements ModelAwarePolicy {
    private final String name;
    final RandomGenerator random;

    RandomizedPolicy(String name, RandomGenerator random) {
        this.name = name;
        this.random = random;
    }

    @Override
    public final String name() {
        return name;
    }

    /** Runs the whole request on {@code server} if there is one (loading the model there if needed), else waits for room. */
    final Decision runOn(Optional<String> server, ModelAwareRequest request, ModelRegistry registry) {
        return server.<Decision>map(s -> Decision.Place.local(s, request.model(), registry, name))
                .orElseGet(() -> Candidates.noRoom(request));
    }
}
