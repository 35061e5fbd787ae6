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
 * rule: reserve, pin, evict idle units least recently used first, load) and what the twin adds around it as an
 * executor. A request's part is its stages of nonzero ops on one server. Memory is pinned only by stages that are
 * ready to run or running: a stage whose inputs have all arrived takes its unit's memory when it fits beside the
 * pinned ones and no earlier stage waits on that server ({@link #admitOrWait}), else it waits there in arrival order
 * holding nothing, until pins are released ({@link #released}); its pin is released when it finishes. Idle units
 * that in-flight requests will still run are evicted last ({@link #wanted}). A pinned stage
 * waits for nothing but its server's FIFO queue, so no wait for memory can form a cycle. The part's first stage to
 * start loads the whole part when it fits (its other units held but idle, evictable, until their stages are ready),
 * else its own unit; a later stage whose unit was evicted meanwhile loads it again ({@link #load}). A part larger
 * than its server's whole memory is never placed ({@link #tooLarge}). Models are registered by name; a catalog
 * entry whose task bytes change gets new cache units (the old ones are evicted as idle). Not thread-safe; owned by
 * {@link TwinCluster}.
 */
final class TwinMemory {
    private final PartCaches caches;
    private final Map<String, Registered> models = new LinkedHashMap<>();
    private final ArrayDeque<Waiting>[] waiting;
    private long violations;
    private long waits;
    private final int[] scratch = new int[1];

    private record Registered(TwinModel model, int index) {}

    private record Waiting(TwinRequest request, int task) {}

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

    /**
     * Task {@code t} of {@code r} (nonzero ops) is ready on its server: it pins its unit now if it fits and no earlier
     * stage waits there, else it waits.
     *
     * @return whether it was admitted (it may run now)
     */
    boolean admitOrWait(TwinRequest r, int t) {
        int s = r.server[t];
        if (waiting[s].isEmpty() && fits(s, r, t)) {
            pin(s, r, t);
            return true;
        }
        waits++;
        waiting[s].add(new Waiting(r, t));
        return false;
    }

    private boolean fits(int s, TwinRequest r, int t) {
        scratch[0] = t;
        return caches.fits(s, r.partModel, scratch, 1);
    }

    private void pin(int s, TwinRequest r, int t) {
        scratch[0] = t;
        caches.place(s, r.partModel, scratch, 1);
        r.pinned[t] = true;
    }

    /** Request {@code r} arrived: its parts' units are wanted on their servers (evicted last while idle). */
    void wanted(TwinRequest r) {
        for (int p = 0; p < r.parts(); p++) {
            for (int t : r.partTasks[p]) {
                caches.want(r.partServer[p], r.partModel, t, +1);
            }
        }
    }

    /** Task {@code t} of {@code r} (nonzero ops) on {@code s} finished or was dropped: its unit is no longer wanted. */
    void unwanted(int s, TwinRequest r, int t) {
        caches.want(s, r.partModel, t, -1);
    }

    /** Task {@code t} of {@code r}, pinned on {@code s}, finished or was dropped: its unit is idle. */
    void release(int s, TwinRequest r, int t) {
        if (r.pinned[t]) {
            r.pinned[t] = false;
            caches.release(s, r.partModel, t);
        }
    }

    /**
     * Memory was released on {@code s}: the stages waiting there take it, in arrival order, while they fit (those of
     * ended requests are dropped); {@code admitted} is told of each (request, task) pinned.
     */
    void released(int s, ObjIntConsumer<TwinRequest> admitted) {
        ArrayDeque<Waiting> queue = waiting[s];
        while (!queue.isEmpty()) {
            Waiting w = queue.peek();
            TwinRequest r = w.request();
            if (r.ended) {
                queue.poll();
                continue;
            }
            if (!fits(s, r, w.task())) {
                return;
            }
            queue.poll();
            pin(s, r, w.task());
            admitted.accept(r, w.task());
        }
    }

    /** Stages waiting for memory on {@code s} (those of ended requests included until dropped). */
    int waitingOn(int s) {
        return waiting[s].size();
    }

    /**
     * Task {@code t} of part {@code p} starts on {@code s}: seconds of its cold start ($F + b/B$ for the bytes not
     * loaded there; 0 without a cold-start cost), or a negative number when there is nothing to load. The part's
     * first stage to start loads the whole part if it fits now, else its own unit.
     */
    double load(int s, TwinRequest r, int p, int t) {
        double missing;
        int[] part = r.partTasks[p];
        if (!r.partLoaded[p] && caches.reserve(s, r.partModel, part, part.length)) {
            missing = caches.load(s, r.partModel, part, part.length);
        } else {
            scratch[0] = t;
            missing = caches.load(s, r.partModel, scratch, 1);
        }
        r.partLoaded[p] = true;
        return missing > 0 ? caches.loadSeconds(missing) : -1;
    }

    /** Memory of {@code s} not pinned by ready or running stages: what a new part may use now (idle units evicted). */
    double freeBytes(int s) {
        return caches.freeBytes(s);
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

    /** Stages that waited for pinned ones to release memory. */
    long waits() {
        return waits;
    }
}
