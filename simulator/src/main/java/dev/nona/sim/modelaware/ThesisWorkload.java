package dev.nona.sim.modelaware;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A model-aware workload: the cluster, the models with their measured times, and the request script.
 * Validated as a whole: every group names a known model, asks for no more cores than a machine has, and
 * every model fits a machine's memory.
 */
public record ThesisWorkload(ThesisCluster cluster, List<SimModel> models, List<RequestGroup> requests) {
    public ThesisWorkload {
        Objects.requireNonNull(cluster, "cluster");
        models = List.copyOf(models);
        requests = List.copyOf(requests);
        if (models.isEmpty()) {
            throw new IllegalArgumentException("models must list at least one model");
        }
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("requests must list at least one request group");
        }
        Map<String, SimModel> byName = new HashMap<>();
        for (SimModel m : models) {
            if (byName.put(m.name(), m) != null) {
                throw new IllegalArgumentException("models: duplicate name '" + m.name() + "'");
            }
            if (m.sizeMb() > cluster.memoryMbPerServer()) {
                throw new IllegalArgumentException("model '" + m.name() + "': sizeMb (" + m.sizeMb()
                        + ") exceeds cluster.memoryMbPerServer (" + cluster.memoryMbPerServer() + ")");
            }
        }
        for (int i = 0; i < requests.size(); i++) {
            RequestGroup g = requests.get(i);
            if (!byName.containsKey(g.model())) {
                throw new IllegalArgumentException("requests[" + i + "].model ('" + g.model() + "') is not in models");
            }
            if (g.cores() > cluster.coresPerServer()) {
                throw new IllegalArgumentException("requests[" + i + "].cores (" + g.cores()
                        + ") exceeds cluster.coresPerServer (" + cluster.coresPerServer() + ")");
            }
        }
    }

    public SimModel model(String name) {
        return models.stream().filter(m -> m.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown model '" + name + "'"));
    }

    public int totalRequests() {
        return requests.stream().mapToInt(RequestGroup::count).sum();
    }
}
