package dev.nona.twin;

import dev.nona.sim.engine.PartCaches;
import dev.nona.topics.record.CachedModel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ObjIntConsumer;

/**
 * The twin's servers' memory for model parts: the simulator's {@link PartCaches} (one implementation of the caching
 * rule: reserve, pin, evict idle parts least recently used first, load on first use) and what the twin adds around
 * it as an executor. A request's part (its stages of nonzero ops on one server) is placed in the caches when it fits
 * beside the parts running there and no earlier part waits there; otherwise it waits on that server, in arrival
 * order, until running parts release memory ({@link #released}). A part larger than its server's whole memory is
 * never placed ({@link #tooLarge}). Models are registered by name; a catalog entry whose task bytes change gets new
 * cache units (the old ones are evicted as idle). Not thread-safe; owned by {@link TwinCluster}.
 */
final class TwinMemory {
    private final PartCaches caches;
    private final Map<String, Registered> models = new LinkedHashMap<>();
    private final ArrayDeque<Waiting>[] waiting;
    private long violations;
    private long waits;

    private record Registered(TwinModel model, int index) {}

    private record Waiting(TwinRequest request, int part) {}

    @SuppressWarnings("unchecked")
    TwinMemory(TwinOptions options) {
        double[] memory = new double[options.servers()];
        for (int s = 0; s < memory.length; s++) {
            memory[s] = options.classes().get(options.classOf(s)).memoryBytes();
        }
        this.caches = new PartCaches(memory, options.coldStart());
        this.waiting = new ArrayDeque[memory.length];
        for (int s = 0; s < memory.length; s++) {
            waiting[s] = new ArrayDeque<>();
        }
    }

    /** The model's index in the caches: the same while its tasks' bytes stay the same, a new one when they change. */
    int modelIndex(TwinModel model) {
        Registered known = models.get(model.name());
        if (known != null && (known.model() == model || Arrays.equals(known.model().bytes(), model.bytes()))) {
            return known.index();
        }
        int index = caches.addModel(model.name(), model.bytes());
        models.put(model.name(), new Registered(model, index));
        return index;
    }

    /**
     * Why request {@code r} cannot run: its first part larger than its server's whole memory (counted as a memory
     * violation), or null when every part fits its server.
     */
    String tooLarge(TwinRequest r, TwinServers servers, List<String> classNames) {
        for (int p = 0; p < r.parts(); p++) {
            int s = r.partServer[p];
            int[] tasks = r.partTasks[p];
            if (!caches.fitsEmpty(s, r.partModel, tasks, tasks.length)) {
                violations++;
                double bytes = 0;
                for (int t : tasks) {
                    bytes += r.model.bytes(t);
                }
                return String.format("memory: the part of %d stages on %s needs %d bytes, more than its memory (%d "
                        + "bytes, class %s)", tasks.length, servers.id(s), Math.round(bytes),
                        Math.round(caches.memoryBytes(s)), classNames.get(servers.classIndex(s)));
            }
        }
        return null;
    }

    /** Part {@code p} of {@code r} takes its memory now if it fits and no earlier part waits there, else it waits. */
    void admitOrWait(TwinRequest r, int p) {
        int s = r.partServer[p];
        int[] tasks = r.partTasks[p];
        if (tasks.length == 0) {
            r.partAdmitted[p] = true;
        } else if (waiting[s].isEmpty() && caches.fits(s, r.partModel, tasks, tasks.length)) {
            caches.place(s, r.partModel, tasks, tasks.length);
            r.partAdmitted[p] = true;
        } else {
            waits++;
            waiting[s].add(new Waiting(r, p));
        }
    }

    /** Task {@code t} of {@code r}, of an admitted part on {@code s}, finished or was dropped: its bytes are idle. */
    void release(int s, TwinRequest r, int t) {
        caches.release(s, r.partModel, t);
    }

    /**
     * Memory was released on {@code s}: the parts waiting there take it, in arrival order, while they fit (those of
     * ended requests are dropped); {@code admitted} is told of each (request, part) placed.
     */
    void released(int s, ObjIntConsumer<TwinRequest> admitted) {
        ArrayDeque<Waiting> queue = waiting[s];
        while (!queue.isEmpty()) {
            Waiting w = queue.peek();
            TwinRequest r = w.request();
            int[] tasks = r.partTasks[w.part()];
            if (r.ended) {
                queue.poll();
                continue;
            }
            if (!caches.fits(s, r.partModel, tasks, tasks.length)) {
                return;
            }
            queue.poll();
            caches.place(s, r.partModel, tasks, tasks.length);
            r.partAdmitted[w.part()] = true;
            admitted.accept(r, w.part());
        }
    }

    /**
     * The part's first stage starts on {@code s}: seconds of its cold start ($F + b/B$ for the bytes not loaded
     * there; 0 without a cold-start cost), or a negative number when there is nothing to load.
     */
    double load(int s, TwinRequest r, int p) {
        double missing = caches.load(s, r.partModel, r.partTasks[p], r.partTasks[p].length);
        return missing > 0 ? caches.loadSeconds(missing) : -1;
    }

    /** Each model with bytes loaded on {@code s}, and those bytes. */
    List<CachedModel> loaded(int s) {
        List<CachedModel> out = new ArrayList<>();
        models.forEach((name, m) -> {
            double bytes = caches.loadedBytes(s, m.index());
            if (bytes > 0) {
                out.add(new CachedModel(name, Math.round(bytes)));
            }
        });
        return out;
    }

    /** Units of idle parts evicted so far. */
    long evictions() {
        return caches.evictions();
    }

    /** Requests refused for a part larger than its server's memory. */
    long violations() {
        return violations;
    }

    /** Parts that waited for running parts to release memory. */
    long waits() {
        return waits;
    }
}
