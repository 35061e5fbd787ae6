package dev.nona.twin;

import dev.nona.modelaware.ModelRegistry;
import dev.nona.sim.engine.ModelCaches;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;

/**
 * The twin's servers as they report themselves: ids, class and speed, faults (slow factor, silence time), and what
 * their telemetry says (requests with an unfinished stage on them, the nominal seconds of those stages, the models
 * loaded in their caches, and with part caches their class, memory and free memory). Server indices are the engine's. Not
 * thread-safe.
 */
final class TwinServers {
    /** What a cached model is reported to take ({@link CachedModel#bytes()}): the twin counts slots, not bytes. */
    static final long MODEL_BYTES = 500_000_000L;

    private final TwinOptions options;
    private final List<String> ids;
    private final Map<String, Integer> index = new HashMap<>();
    private final double[] speed;
    private final int[] classIndex;
    private final double[] slowFactor;
    private final double[] silencedAt;
    private final int[] ongoing;
    private final double[] backlogSeconds;
    private final int[] backlogStages;

    TwinServers(TwinOptions options) {
        this.options = options;
        this.ids = options.serverIds();
        int n = ids.size();
        this.speed = new double[n];
        this.classIndex = new int[n];
        this.slowFactor = new double[n];
        this.silencedAt = new double[n];
        for (int s = 0; s < n; s++) {
            index.put(ids.get(s), s);
            classIndex[s] = options.classOf(s);
            speed[s] = options.classes().get(classIndex[s]).opsPerSecond();
            slowFactor[s] = options.slowFactors().getOrDefault(ids.get(s), 1.0);
            silencedAt[s] = options.silenceAfterSeconds().getOrDefault(ids.get(s), Double.POSITIVE_INFINITY);
        }
        this.ongoing = new int[n];
        this.backlogSeconds = new double[n];
        this.backlogStages = new int[n];
    }

    List<String> ids() {
        return ids;
    }

    /** The index of server {@code id}, or -1 if the twin has no such server. */
    int index(String id) {
        Integer s = index.get(id);
        return s == null ? -1 : s;
    }

    String id(int s) {
        return ids.get(s);
    }

    /** {@code s-0 .. s-(N-1)}, for messages. */
    String range() {
        return ids.get(0) + " .. " + ids.get(ids.size() - 1);
    }

    /** $\nu$ of server {@code s}: its class's speed, what it reports. */
    double speed(int s) {
        return speed[s];
    }

    /** The index of server {@code s}'s class in {@code TwinOptions.classes()}. */
    int classIndex(int s) {
        return classIndex[s];
    }

    double slowFactor(int s) {
        return slowFactor[s];
    }

    /** Whether server {@code s} is silenced at engine time {@code now}. */
    boolean silent(int s, double now) {
        return silencedAt[s] <= now;
    }

    /** A request with stages on {@code s} arrived ({@code +1}) or its last stage there ended ({@code -1}). */
    void requests(int s, int delta) {
        ongoing[s] += delta;
    }

    /** Requests with a stage on {@code s} not yet finished. */
    int ongoing(int s) {
        return ongoing[s];
    }

    /** Nominal seconds of the stages given to {@code s} and not finished. */
    double backlogSeconds(int s) {
        return Math.max(0, backlogSeconds[s]);
    }

    /** A stage of {@code nominalSeconds} was given to {@code s}. */
    void assigned(int s, double nominalSeconds) {
        backlogSeconds[s] += nominalSeconds;
        backlogStages[s]++;
    }

    /** A stage of {@code nominalSeconds} given to {@code s} finished or was dropped. */
    void released(int s, double nominalSeconds) {
        if (--backlogStages[s] == 0) {
            backlogSeconds[s] = 0; // no drift from floating-point sums
        } else {
            backlogSeconds[s] -= nominalSeconds;
        }
    }

    /**
     * One status per server not silenced at engine time {@code now}: up, its nominal speed, its ongoing requests,
     * its backlog, the models {@code cached} says it holds, and the link's capacity; with part caches also its
     * class, and when its memory is bounded the memory and what of it {@code free} says a new part may use now.
     */
    List<ServerTelemetry> telemetry(long nowMillis, double now, IntFunction<List<CachedModel>> cached,
            IntToDoubleFunction free) {
        List<ServerTelemetry> out = new ArrayList<>(ids.size());
        for (int s = 0; s < ids.size(); s++) {
            if (!silent(s, now)) {
                ServerTelemetry t = ServerTelemetry.of(ids.get(s), true, speed[s], ongoing[s], cached.apply(s),
                        options.linkBitsPerSecond(), nowMillis, Math.max(0, backlogSeconds[s]));
                if (options.partCaches()) {
                    ServerClass c = options.classes().get(classIndex[s]);
                    t = t.withClass(c.name(), c.memoryBounded() ? c.memoryBytes() : null);
                    if (c.memoryBounded() && free != null) {
                        t = t.withFreeMemoryBytes(Math.min(c.memoryBytes(), free.applyAsDouble(s)));
                    }
                }
                out.add(t);
            }
        }
        return out;
    }

    /** The models loaded in {@code caches} (model slots) on server {@code s}, each reported as {@link #MODEL_BYTES}. */
    List<CachedModel> loadedModels(int s, ModelCaches caches) {
        String id = ids.get(s);
        ModelRegistry registry = caches.registry();
        return registry.residents(id).stream().filter(m -> registry.isLoaded(id, m))
                .map(m -> new CachedModel(m, MODEL_BYTES)).toList();
    }
}
