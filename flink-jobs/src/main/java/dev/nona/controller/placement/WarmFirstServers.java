package dev.nona.controller.placement;

import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * The model registry as the placement operator sees it, from the latest telemetry of every server: which servers
 * are up and which hold each model warm with fewer than the target number of requests in flight. Maps a request's
 * parts to servers warm first (the model-aware scheduling thesis's colocation rule, target 3 by default): a warm
 * server under target when there is one, else any up server, uniformly; further parts of the same request go to
 * distinct servers while enough are up. Servers are indexed {@code 0..upCount()-1} in id order.
 *
 * <p>Immutable (rebuilt when telemetry changes); picks do not allocate and are $O(1)$ expected.
 *
 * <p>Based on: the model-aware scheduling thesis (SigmaOS + Ray Serve), colocation with a target of ongoing requests.
 */
public final class WarmFirstServers {
    private static final int[] NONE = new int[0];

    private final String[] up;
    private final Map<String, int[]> warmUnderTarget;

    private WarmFirstServers(String[] up, Map<String, int[]> warmUnderTarget) {
        this.up = up;
        this.warmUnderTarget = warmUnderTarget;
    }

    /** From the latest status of each server; servers that are down are never chosen. */
    public static WarmFirstServers of(Collection<ServerTelemetry> latest, int targetOngoingRequests) {
        Map<String, ServerTelemetry> sorted = new TreeMap<>();
        latest.forEach(s -> sorted.put(s.serverId(), s));
        List<String> up = new ArrayList<>();
        Map<String, List<Integer>> warm = new HashMap<>();
        for (ServerTelemetry s : sorted.values()) {
            if (!s.up()) {
                continue;
            }
            int index = up.size();
            up.add(s.serverId());
            if (s.ongoingRequests() < targetOngoingRequests) {
                for (CachedModel m : s.cachedModels()) {
                    warm.computeIfAbsent(m.model(), k -> new ArrayList<>()).add(index);
                }
            }
        }
        Map<String, int[]> warmArrays = new HashMap<>();
        warm.forEach((m, list) -> warmArrays.put(m, list.stream().mapToInt(Integer::intValue).toArray()));
        return new WarmFirstServers(up.toArray(String[]::new), warmArrays);
    }

    public int upCount() {
        return up.length;
    }

    /** The id of server {@code index}. */
    public String id(int index) {
        return up[index];
    }

    /** The servers holding {@code model} warm under the target (indices; do not modify). */
    public int[] warm(String model) {
        return warmUnderTarget.getOrDefault(model, NONE);
    }

    /** One server for {@code model}: a warm one under target if any, else any up server. */
    public int pick(String model, RandomGenerator rng) {
        int[] warm = warm(model);
        return warm.length > 0 ? warm[rng.nextInt(warm.length)] : rng.nextInt(up.length);
    }

    /**
     * A server for a further part of the same request, not in {@code taken[0..n)} while enough servers are up:
     * a warm one first, else uniformly among the rest; when every up server is taken, any up server.
     */
    public int pickOther(int[] warm, int[] taken, int n, RandomGenerator rng) {
        int w = pickFree(warm, warm.length, taken, n, rng);
        if (w >= 0) {
            return w;
        }
        if (n >= up.length) {
            return rng.nextInt(up.length);
        }
        for (int attempt = 0; attempt < 8; attempt++) {
            int s = rng.nextInt(up.length);
            if (!contains(taken, n, s)) {
                return s;
            }
        }
        int start = rng.nextInt(up.length);
        for (int i = 0; i < up.length; i++) {
            int s = (start + i) % up.length;
            if (!contains(taken, n, s)) {
                return s;
            }
        }
        throw new IllegalStateException("BUG: " + n + " taken of " + up.length + " servers, yet none free");
    }

    private static int pickFree(int[] pool, int size, int[] taken, int n, RandomGenerator rng) {
        if (size == 0) {
            return -1;
        }
        int start = rng.nextInt(size);
        for (int i = 0; i < size; i++) {
            int s = pool[(start + i) % size];
            if (!contains(taken, n, s)) {
                return s;
            }
        }
        return -1;
    }

    private static boolean contains(int[] a, int n, int s) {
        for (int i = 0; i < n; i++) {
            if (a[i] == s) {
                return true;
            }
        }
        return false;
    }
}
