package dev.nona.sim.modelaware;

import dev.nona.modelaware.Decision;
import dev.nona.modelaware.InferenceRequest;

/** One request in flight in the model-aware simulator. */
final class SimRequest {
    final InferenceRequest request;
    final SimModel model;
    final int group;
    final int index;
    double arrival;
    Decision.Place placement;

    SimRequest(InferenceRequest request, SimModel model, int group, int index) {
        this.request = request;
        this.model = model;
        this.group = group;
        this.index = index;
    }
}
