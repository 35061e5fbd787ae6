package dev.nona.modelaware;

import dev.nona.check.Checks;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The models one server holds in memory: an LRU cache bounded by the server's memory. Loading a model
 * evicts least-recently-used models until it fits; a lookup that hits refreshes the model's recency.
 *
 * <p>Not thread-safe: one owner (the registry) mutates it.
 */
public final class ModelCache {
    private final double capacityMb;
    private final LinkedHashMap<String, Double> sizes = new LinkedHashMap<>(16, 0.75f, true);
    private double usedMb;

    /** @param capacityMb memory available for models (MB), $&gt; 0$ */
    public ModelCache(double capacityMb) {
        this.capacityMb = Checks.positive(capacityMb, "cache capacityMb");
    }

    public double capacityMb() {
        return capacityMb;
    }

    public double usedMb() {
        return usedMb;
    }

    /** Whether the model is cached, without touching its recency. */
    public boolean contains(String model) {
        return sizes.containsKey(model);
    }

    /** The size of a cached model (MB), or 0 if it is not cached; does not touch its recency. */
    public double sizeMb(String model) {
        for (Map.Entry<String, Double> e : sizes.entrySet()) {
            if (e.getKey().equals(model)) {
                return e.getValue();
            }
        }
        return 0;
    }

    /** Marks a cached model as just used; returns whether it was cached. */
    public boolean touch(String model) {
        return sizes.get(model) != null;
    }

    /**
     * Adds a model (or refreshes it if present), evicting least-recently-used models until it fits.
     *
     * @return the evicted models, least recently used first
     * @throws IllegalArgumentException if the model alone exceeds the capacity
     */
    public List<String> load(String model, double sizeMb) {
        Checks.positive(sizeMb, "model '" + model + "': sizeMb");
        if (sizeMb > capacityMb) {
            throw new IllegalArgumentException("model '" + model + "' (" + sizeMb
                    + " MB) does not fit in a server cache of " + capacityMb + " MB");
        }
        if (touch(model)) {
            return List.of();
        }
        List<String> evicted = new ArrayList<>();
        Iterator<Map.Entry<String, Double>> lru = sizes.entrySet().iterator();
        while (usedMb + sizeMb > capacityMb && lru.hasNext()) {
            Map.Entry<String, Double> victim = lru.next();
            usedMb -= victim.getValue();
            evicted.add(victim.getKey());
            lru.remove();
        }
        sizes.put(model, sizeMb);
        usedMb += sizeMb;
        return evicted;
    }

    /** The cached models, least recently used first (a copy). */
    public List<String> models() {
        return List.copyOf(sizes.keySet());
    }
}
