package dev.nona.sim.modelaware.policy;

import dev.nona.modelaware.ModelProfile;
import dev.nona.modelaware.ModelRegistry;
import dev.nona.sim.modelaware.policy.ModelAwareView;
import java.util.HashMap;
import java.util.Map;

/** A hand-set cluster for policy tests: servers s0..s{n-1} with free cores set per server. */
final class TestingModelAwareView implements ModelAwareView {
    static final ModelProfile T5_SMALL = new ModelProfile("t5-small", 242, 3.0, 1.0, 5.0);

    private final ModelRegistry registry;
    private final Map<String, Integer> freeCores = new HashMap<>();

    TestingModelAwareView(int servers, int cores) {
        registry = new ModelRegistry();
        for (int i = 0; i < servers; i++) {
            registry.addServer("s" + i, 192_000);
            freeCores.put("s" + i, cores);
        }
    }

    @Override
    public ModelRegistry registry() {
        return registry;
    }

    @Override
    public boolean hasRoom(String server, int cores) {
        return freeCores.get(server) >= cores;
    }

    /** A request of {@code cores} runs on {@code server}, its model on the same server. */
    TestingModelAwareView running(String server, int cores, ModelProfile model) {
        freeCores.merge(server, -cores, Integer::sum);
        registry.assign(server, model);
        registry.markLoaded(server, model);
        registry.beginRequest(server);
        return this;
    }
}
