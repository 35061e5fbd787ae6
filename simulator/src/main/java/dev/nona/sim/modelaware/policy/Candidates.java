package dev.nona.sim.modelaware.policy;

import dev.nona.modelaware.Colocation;
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
     * if every server with room holds it, any of them: {@link Colocation#elsewhere}.
     */
    static Optional<String> elsewhereWithRoom(ModelAwareRequest request, ModelAwareView cluster, RandomGenerator random) {
        List<String> ids = cluster.registry().servers();
        int s = Colocation.elsewhere(ids.size(), i -> cluster.hasRoom(ids.get(i), request.cores()),
                i -> cluster.registry().isResident(ids.get(i), request.model()), random);
        return s < 0 ? Optional.empty() : Optional.of(ids.get(s));
    }

    static Decision.Wait noRoom(ModelAwareRequest request) {
        return new Decision.Wait("no server has " + request.cores() + " free cores");
    }
}
