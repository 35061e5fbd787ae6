package dev.nona.controller.placement;

import dev.nona.placement.UniformServerPolicy;
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
 * server under target when there is one, uniformly, else any up server by Nona's uniform rule (policy-model's
 * {@link UniformServerPolicy}); further parts of the same request go to distinct servers while enough are up.
 * Servers are indexed {@code 0..upCount()-1} in id order.
 *
 * <p>Why not policy-model's {@code modelaware.WarmFirstServerPolicy} over a {@code ModelRegistry}: that pair
 * serves the simulator, whose registry is a live ledger (it counts a request in flight the moment it routes it,
 * and simulates each server's LRU memory), so it picks the <em>least loaded</em> warm server. Here the counts
 * come from telemetry, seconds old and not updated by this operator's own decisions: least loaded over stale
 * counts would send every request between two reports to the same server, so the choice among warm servers
 * under target is uniform. Telemetry also reports the cached models as facts (sizes may be 0, no server memory),
 * where the registry needs memory and sizes to simulate its cache. And the policy scans every server with map
 * look-ups per pick; this class precomputes each model's warm servers when telemetry changes, so a pick is
 * $O(1)$ on the per-request path. The rule for servers without the model (uniform, distinct parts) is shared.
 *
 * <p>Immutable (rebuilt when telemetry changes); picks do not allocate and are $O(1)$ expected.
 *
 * <p>Based on: the model-aware scheduling thesis (SigmaOS + Ray Serve), colocation with a target of ongoing requests;
 * Nona (CloudNet 2024), Section III-C, for the uniform rule.
 */
public final class WarmFirstServers {
    private static final int[] NONE = new int[0];

    private final String[] up;
    private final Map<String, int[]> warmUnderTarget;
    /** Nona's uniform rule over the up servers, when no warm server is free; null when none is up. */
    private final UniformServerPolicy anyUp;

    private WarmFirstServers(String[] up, Map<String, int[]> warmUnderTarget) {
        this.up = up;
        this.warmUnderTarget = warmUnderTarget;
        this.anyUp = up.length == 0 ? null : UniformServerPolicy.ofRange(up.length);
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
        return warm.length > 0 ? warm[rng.nextInt(warm.length)] : anyUp().sourceServer(0, rng);
    }

    /**
     * A server for a further part of the same request, not in {@code taken[0..n)} while enough servers are up:
     * a warm one first, else uniformly among the rest (policy-model's {@link UniformServerPolicy}, Nona's rule);
     * when every up server is taken, any up server.
     */
    public int pickOther(int[] warm, int[] taken, int n, RandomGenerator rng) {
        int w = pickFree(warm, warm.length, taken, n, rng);
        return w >= 0 ? w : anyUp().partServer(0, taken, n, rng);
    }

    private UniformServerPolicy anyUp() {
        if (anyUp == null) {
            throw new IllegalStateException("no server is up");
        }
        return anyUp;
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
