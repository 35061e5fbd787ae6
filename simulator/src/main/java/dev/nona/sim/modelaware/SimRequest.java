package dev.nona.sim.modelaware;

import dev.nona.sim.modelaware.policy.Decision;
import dev.nona.sim.modelaware.policy.ModelAwareRequest;

/** One request in flight in the model-aware simulator; its index is its item on the engine's servers. */
final class SimRequest {
    final ModelAwareRequest request;
    final SimModel model;
    /** The model's index in the engine's model caches. */
    final int modelIndex;
    final int group;
    final int index;
    double arrival;
    Decision.Place placement;
    /** Engine indices of the placement's servers. */
    int cpuServer;
    int inferenceServer;

    SimRequest(ModelAwareRequest request, SimModel model, int modelIndex, int group, int index) {
        this.request = request;
        this.model = model;
        this.modelIndex = modelIndex;
        this.group = group;
        this.index = index;
    }
}
