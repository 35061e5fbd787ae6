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
 * The model registry as the placement operator sees it: which servers are up, which hold each model warm, and how
 * many requests each has in flight, from the latest telemetry of every server plus a ledger of this operator's own
 * decisions since that server's last report (the thesis's {@code MASched} counts a request the moment it routes
 * it). Maps a request's parts to servers warm first (the thesis's colocation rule, target 3 by default): a warm
 * server whose reported plus placed requests are under the target, uniformly; when there is none, the up server
 * with the fewest reported plus placed requests (random start, ties to the first met); further parts of the same
 * request go to distinct servers while enough are up, and when every up server is taken, any up server by Nona's
 * uniform rule (policy-model's {@link UniformServerPolicy}). Every choice adds one to the chosen server's ledger;
 * a new report from a server clears its entry (the report now counts what reached it).
 *
 * <p>Why the ledger: telemetry is about a second old. Without it, every request between two reports goes to the
 * servers that looked free at the last one; in the simulator (zoo workload, 70% load, 5 seeds, {@code nona-stale})
 * that made the warm-first rule no better than uniform sampling (0.431 s vs 0.436 s mean JCT) and worse at 80-90%
 * load; with the ledger ({@code nona-controller}), 0.256 s. Each placement subtask keeps its own ledger, so with parallelism
 * $p$ each counts about $1/p$ of the decisions; the ledger is not checkpointed (after a restore the next reports
 * rebuild it).
 *
 * <p>Why not policy-model's {@code modelaware.WarmFirstServerPolicy} over a {@code ModelRegistry}: that pair serves
 * the simulator, whose registry simulates each server's LRU memory and needs memory and model sizes; telemetry
 * reports the cached models as facts (sizes may be 0, no server memory). The rule for servers without the model
 * when every server is taken (uniform, distinct parts) is shared.
 *
 * <p>Rebuilt when telemetry changes ({@link #of(Collection, int, WarmFirstServers)} carries the ledger over for the
 * servers whose report did not change); a pick scans the model's warm servers, and the up servers when none is
 * under the target: $O(N)$ at worst, no allocation. Not thread-safe: one instance per placement subtask.
 *
 * <p>Based on: the model-aware scheduling thesis (SigmaOS + Ray Serve), colocation with a target of ongoing requests
 * and MASched's count of routed requests; Nona (CloudNet 2024), Section III-C, for the uniform rule.
 */
public final class WarmFirstServers {
    private static final int[] NONE = new int[0];

    private final String[] up;
    private final ServerTelemetry[] reports;
    private final int[] reported;
    private final int[] placed;
    private final Map<String, int[]> warm;
    private final int target;
    /** Nona's uniform rule over the up servers, when every one is taken; null when none is up. */
    private final UniformServerPolicy anyUp;

    private WarmFirstServers(List<ServerTelemetry> up, Map<String, int[]> warm, int target) {
        this.up = up.stream().map(ServerTelemetry::serverId).toArray(String[]::new);
        this.reports = up.toArray(ServerTelemetry[]::new);
        this.reported = up.stream().mapToInt(ServerTelemetry::ongoingRequests).toArray();
        this.placed = new int[this.up.length];
        this.warm = warm;
        this.target = target;
        this.anyUp = this.up.length == 0 ? null : UniformServerPolicy.ofRange(this.up.length);
    }

    /** From the latest status of each server, with an empty ledger; servers that are down are never chosen. */
    public static WarmFirstServers of(Collection<ServerTelemetry> latest, int targetOngoingRequests) {
        return of(latest, targetOngoingRequests, null);
    }

    /**
     * From the latest status of each server, keeping {@code previous}'s ledger entries for the servers whose report
     * is unchanged (a server that reported again starts from its new count).
     */
    public static WarmFirstServers of(Collection<ServerTelemetry> latest, int targetOngoingRequests, WarmFirstServers previous) {
        if (targetOngoingRequests < 1) {
            throw new IllegalArgumentException("placement.target-ongoing-requests (" + targetOngoingRequests + ") must be >= 1");
        }
        Map<String, ServerTelemetry> sorted = new TreeMap<>();
        latest.forEach(s -> sorted.put(s.serverId(), s));
        List<ServerTelemetry> up = new ArrayList<>();
        Map<String, List<Integer>> warm = new HashMap<>();
        for (ServerTelemetry s : sorted.values()) {
            if (!s.up()) {
                continue;
            }
            int index = up.size();
            up.add(s);
            for (CachedModel m : s.cachedModels()) {
                warm.computeIfAbsent(m.model(), k -> new ArrayList<>()).add(index);
            }
        }
        Map<String, int[]> warmArrays = new HashMap<>();
        warm.forEach((m, list) -> warmArrays.put(m, list.stream().mapToInt(Integer::intValue).toArray()));
        WarmFirstServers next = new WarmFirstServers(up, warmArrays, targetOngoingRequests);
        if (previous != null) {
            next.carryLedger(previous);
        }
        return next;
    }

    private void carryLedger(WarmFirstServers previous) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < previous.up.length; i++) {
            index.put(previous.up[i], i);
        }
        for (int i = 0; i < up.length; i++) {
            Integer old = index.get(up[i]);
            if (old != null && previous.reports[old].equals(reports[i])) {
                placed[i] = previous.placed[old];
            }
        }
    }

    public int upCount() {
        return up.length;
    }

    /** The id of server {@code index}. */
    public String id(int index) {
        return up[index];
    }

    /** The up servers holding {@code model} warm, whatever their load (indices; do not modify). */
    public int[] warm(String model) {
        return warm.getOrDefault(model, NONE);
    }

    /** Requests in flight on server {@code index} as this operator knows them: the last report plus its own decisions since. */
    public int ongoing(int index) {
        return reported[index] + placed[index];
    }

    /** One server for {@code model} (see the class comment); counts the choice. */
    public int pick(String model, RandomGenerator rng) {
        return pickOther(warm(model), NONE, 0, rng);
    }

    /**
     * A server for a part of a request, not in {@code taken[0..n)} while enough servers are up: a warm one under the
     * target, else the least loaded up server, else (every up server taken) any up server; counts the choice.
     */
    public int pickOther(int[] warm, int[] taken, int n, RandomGenerator rng) {
        if (up.length == 0) {
            throw new IllegalStateException("no server is up");
        }
        int s = pickWarmUnderTarget(warm, taken, n, rng);
        if (s < 0) {
            s = leastLoaded(taken, n, rng);
        }
        if (s < 0) {
            s = anyUp.partServer(0, taken, n, rng);
        }
        placed[s]++;
        return s;
    }

    private int pickWarmUnderTarget(int[] pool, int[] taken, int n, RandomGenerator rng) {
        int count = 0;
        for (int s : pool) {
            if (ongoing(s) < target && !contains(taken, n, s)) {
                count++;
            }
        }
        if (count == 0) {
            return -1;
        }
        int k = rng.nextInt(count);
        for (int s : pool) {
            if (ongoing(s) < target && !contains(taken, n, s) && k-- == 0) {
                return s;
            }
        }
        throw new IllegalStateException("BUG: " + count + " warm servers under target counted but none found");
    }

    private int leastLoaded(int[] taken, int n, RandomGenerator rng) {
        int start = rng.nextInt(up.length);
        int best = -1;
        for (int i = 0; i < up.length; i++) {
            int s = (start + i) % up.length;
            if (!contains(taken, n, s) && (best < 0 || ongoing(s) < ongoing(best))) {
                best = s;
            }
        }
        return best;
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
