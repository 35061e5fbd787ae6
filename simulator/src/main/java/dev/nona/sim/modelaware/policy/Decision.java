package dev.nona.sim.modelaware.policy;

import dev.nona.check.Checks;
import dev.nona.modelaware.ModelRegistry;

/** What a {@link ModelAwarePolicy} decided for one request: place it now, or let it wait. */
public sealed interface Decision {

    /** How the request's inference stage is served. */
    enum Route {
        /** On the server running the request's process, which already holds the model. */
        WARM_LOCAL,
        /** On the server running the request's process, which must load the model first. */
        COLD_LOCAL,
        /** On another server that holds the model, over the network (the thesis's model registry). */
        REMOTE
    }

    /**
     * Run the request's process (its CPU stages) on {@code cpuServer} and its inference on
     * {@code inferenceServer}.
     *
     * @param strategy which rule chose it (the policy's name, or for {@code adaptive} the strategy it picked)
     */
    record Place(String cpuServer, String inferenceServer, Route route, String strategy) implements Decision {
        public Place {
            Checks.notBlank(cpuServer, "cpuServer");
            Checks.notBlank(inferenceServer, "inferenceServer");
            if ((route == Route.REMOTE) == cpuServer.equals(inferenceServer)) {
                throw new IllegalArgumentException("route " + route + " does not match cpuServer '" + cpuServer
                        + "' and inferenceServer '" + inferenceServer + "'");
            }
        }

        /** Runs everything on one server; warm or cold depending on the registry. */
        static Place local(String server, String model, ModelRegistry registry, String strategy) {
            Route route = registry.isResident(server, model) ? Route.WARM_LOCAL : Route.COLD_LOCAL;
            return new Place(server, server, route, strategy);
        }
    }

    /** Nothing suitable is free; ask again when the cluster changes. */
    record Wait(String reason) implements Decision {}
}
