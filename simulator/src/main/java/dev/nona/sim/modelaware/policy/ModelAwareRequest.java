package dev.nona.sim.modelaware.policy;

import dev.nona.check.Checks;

/**
 * A request to place: its id, the model it needs and the CPU cores its process reserves on the server it
 * runs on (the thesis's σOS proc; 1 core by default, 4 to reserve a whole machine).
 */
public record ModelAwareRequest(String id, String model, int cores) {
    public ModelAwareRequest {
        Checks.notBlank(id, "request id");
        Checks.notBlank(model, "request '" + id + "': model");
        Checks.positive(cores, "request '" + id + "': cores");
    }
}
