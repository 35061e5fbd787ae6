package dev.nona.sim.modelaware.policy;

import dev.nona.modelaware.ModelRegistry;
import java.util.List;

/** What a {@link ModelAwarePolicy} may look at: the model registry and which servers have free cores. */
public interface ModelAwareView {
    ModelRegistry registry();

    /** Whether the server has {@code cores} free cores right now. */
    boolean hasRoom(String server, int cores);

    /** Servers with {@code cores} free cores, in registration order. */
    default List<String> serversWithRoom(int cores) {
        return registry().servers().stream().filter(s -> hasRoom(s, cores)).toList();
    }
}
