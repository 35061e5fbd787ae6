package dev.nona.sim.engine;

import dev.nona.modelaware.ModelProfile;
import dev.nona.modelaware.ModelRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link Engine}'s option of per-server model caches: each server caches models in its memory, least recently
 * used evicted first, and a task of a model that is not loaded waits for its cold start ($T_{CS}$ of its
 * {@link ModelProfile}). The caches are a {@link ModelRegistry} (the same ledger the thesis's scheduler and the
 * controller keep), so a policy that reads the registry sees exactly the engine's caches: a model is
 * <em>resident</em> from its {@link #place placement} on a server and <em>loaded</em> once its cold start there
 * has finished.
 *
 * <p>Servers are the engine's indices; models are indices into the profile list. Not thread-safe.
 */
public final class ModelCaches {
    private final ModelRegistry registry;
    private final String[] serverIds;
    private final Map<String, Integer> serverIndex = new HashMap<>();
    private final ModelProfile[] models;
    private final Map<String, Integer> modelIndex = new HashMap<>();
    private long evictions;

    /**
     * @param registry  the ledger; every server of {@code serverIds} is registered here with {@code memoryMb}
     * @param serverIds the engine's servers in index order, unique
     * @param memoryMb  memory for cached models on each server, MB
     * @param models    the models tasks may need, unique names; index = position
     */
    public ModelCaches(ModelRegistry registry, List<String> serverIds, double memoryMb, List<ModelProfile> models) {
        this.registry = registry;
        this.serverIds = serverIds.toArray(new String[0]);
        for (int i = 0; i < this.serverIds.length; i++) {
            registry.addServer(this.serverIds[i], memoryMb);
            serverIndex.put(this.serverIds[i], i);
        }
        this.models = models.toArray(new ModelProfile[0]);
        for (int i = 0; i < this.models.length; i++) {
            if (modelIndex.put(this.models[i].name(), i) != null) {
                throw new IllegalArgumentException("model '" + this.models[i].name() + "' is listed twice");
            }
        }
    }

    /** {@code n} servers named {@code s0 … s(n-1)} with the thesis's default ongoing-request target. */
    public static ModelCaches of(int n, double memoryMb, List<ModelProfile> models) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add("s" + i);
        }
        return new ModelCaches(new ModelRegistry(), ids, memoryMb, models);
    }

    public ModelRegistry registry() {
        return registry;
    }

    public int servers() {
        return serverIds.length;
    }

    public String serverId(int s) {
        return serverIds[s];
    }

    /** The engine index of server {@code id}. */
    public int serverIndex(String id) {
        Integer s = serverIndex.get(id);
        if (s == null) {
            throw new IllegalArgumentException("server '" + id + "' is not in the engine");
        }
        return s;
    }

    /** The index of model {@code name}, or {@link Engine#NO_MODEL} if it is not listed. */
    public int modelIndex(String name) {
        return modelIndex.getOrDefault(name, Engine.NO_MODEL);
    }

    public ModelProfile model(int m) {
        return models[m];
    }

    /** A task of model {@code m} is routed to server {@code s}: the model becomes resident (most recently used). */
    public void place(int s, int m) {
        evictions += registry.assign(serverIds[s], models[m]).size();
    }

    boolean isLoaded(int s, int m) {
        return registry.isLoaded(serverIds[s], models[m].name());
    }

    double loadSeconds(int m) {
        return models[m].coldStartSeconds();
    }

    void markLoaded(int s, int m) {
        evictions += registry.markLoaded(serverIds[s], models[m]).size();
    }

    /** Models evicted so far, by placements and by loads. */
    public long evictions() {
        return evictions;
    }
}
