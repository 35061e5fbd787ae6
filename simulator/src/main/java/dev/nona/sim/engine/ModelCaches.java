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
    private final List<ModelProfile> models = new ArrayList<>();
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
        models.forEach(this::add);
    }

    /**
     * Adds a model that tasks may need from now on (a driver whose models arrive while it runs, as the executor
     * twin's catalog does).
     *
     * @return its index
     * @throws IllegalArgumentException if a model of that name is already listed
     */
    public int add(ModelProfile model) {
        int m = models.size();
        if (modelIndex.putIfAbsent(model.name(), m) != null) {
            throw new IllegalArgumentException("model '" + model.name() + "' is listed twice");
        }
        models.add(model);
        return m;
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
        return models.get(m);
    }

    /** A task of model {@code m} is routed to server {@code s}: the model becomes resident (most recently used). */
    public void place(int s, int m) {
        evictions += registry.assign(serverIds[s], models.get(m)).size();
    }

    boolean isLoaded(int s, int m) {
        return registry.isLoaded(serverIds[s], models.get(m).name());
    }

    double loadSeconds(int m) {
        return models.get(m).coldStartSeconds();
    }

    void markLoaded(int s, int m) {
        evictions += registry.markLoaded(serverIds[s], models.get(m)).size();
    }

    /** Models evicted so far, by placements and by loads. */
    public long evictions() {
        return evictions;
    }
}
