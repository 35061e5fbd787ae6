package dev.nona.sim.modelaware.policy;

import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/** Server choices the policies share. */
final class Candidates {
    private Candidates() {}

    /**
     * A server holding the model, under the ongoing-request target, with free cores; least loaded first: the
     * registry's {@code locateProxy} among the servers with room.
     */
    static Optional<String> warmWithRoom(ModelAwareRequest request, ModelAwareView cluster) {
        return cluster.registry().locateProxy(request.model(), s -> cluster.hasRoom(s, request.cores()));
    }

    /** A uniformly random server with free cores (the σOS default scheduler's choice). */
    static Optional<String> anyWithRoom(ModelAwareRequest request, ModelAwareView cluster, RandomGenerator random) {
        List<String> free = cluster.serversWithRoom(request.cores());
        return free.isEmpty() ? Optional.empty() : Optional.of(free.get(random.nextInt(free.size())));
    }

    /**
     * A uniformly random server with free cores that does not hold the model (the thesis's "other machines");
     * if every server with room holds it, any of them.
     */
    static Optional<String> elsewhereWithRoom(ModelAwareRequest request, ModelAwareView cluster, RandomGenerator random) {
        List<String> free = cluster.serversWithRoom(request.cores());
        List<String> cold = free.stream().filter(s -> !cluster.registry().isResident(s, request.model())).toList();
        List<String> pool = cold.isEmpty() ? free : cold;
        return pool.isEmpty() ? Optional.empty() : Optional.of(pool.get(random.nextInt(pool.size())));
    }

    static Decision.Wait noRoom(ModelAwareRequest request) {
        return new Decision.Wait("no server has " + request.cores() + " free cores");
    }
}
