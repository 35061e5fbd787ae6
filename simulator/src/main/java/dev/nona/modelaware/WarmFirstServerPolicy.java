package dev.nona.modelaware;

import dev.nona.placement.ServerPolicy;
import dev.nona.placement.UniformServerPolicy;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Model-aware server choice for Nona's online sampler: a request's source, and every further part of a sampled
 * triplet, go to an eligible server that holds the model and has fewer than {@code targetOngoingRequests}
 * requests in flight (the least loaded such server; ties broken uniformly), and only when there is none to a
 * uniformly random eligible server, as Nona does. Parts stay on distinct servers.
 *
 * <p>Based on: Nona (CloudNet'24), Section III-C (online stage), with the thesis's colocation rule (K. Liu, MEng
 * thesis, MIT, 2025, Section 4.5). Reads a live {@link ModelRegistry}; server index {@code i} is
 * {@code serverIds.get(i)} and model index {@code m} is the table's {@code modelNames.get(m)}. Does not allocate;
 * not thread-safe (the registry is not).
 */
public final class WarmFirstServerPolicy implements ServerPolicy {
    private final ModelRegistry registry;
    private final String[] serverIds;
    private final String[] modelNames;
    private final int[] eligible;
    private final UniformServerPolicy fallback;

    /**
     * @param registry   the live registry
     * @param serverIds  the registry's id of each server index
     * @param modelNames the model of each table index (the placement table's model order)
     * @param eligible   server indices that may be used, at least one, no duplicates
     */
    public WarmFirstServerPolicy(ModelRegistry registry, List<String> serverIds, List<String> modelNames, int[] eligible) {
        this.registry = registry;
        this.serverIds = serverIds.toArray(String[]::new);
        this.modelNames = modelNames.toArray(String[]::new);
        this.fallback = new UniformServerPolicy(eligible);
        this.eligible = eligible.clone();
        for (int s : this.eligible) {
            if (s < 0 || s >= this.serverIds.length) {
                throw new IllegalArgumentException("eligible server index (" + s + ") must be in [0, " + this.serverIds.length + ")");
            }
        }
    }

    @Override
    public int sourceServer(int model, RandomGenerator rnd) {
        int warm = warmest(model, null, 0, rnd);
        return warm >= 0 ? warm : fallback.sourceServer(model, rnd);
    }

    @Override
    public int partServer(int model, int[] taken, int takenCount, RandomGenerator rnd) {
        int warm = warmest(model, taken, takenCount, rnd);
        return warm >= 0 ? warm : fallback.partServer(model, taken, takenCount, rnd);
    }

    /** The least loaded eligible, untaken server holding the model under target; ties uniformly; -1 if none. */
    private int warmest(int model, int[] taken, int takenCount, RandomGenerator rnd) {
        String name = modelNames[model];
        int best = -1;
        int bestLoad = Integer.MAX_VALUE;
        int ties = 0;
        for (int s : eligible) {
            String id = serverIds[s];
            if (!registry.isResident(id, name) || !registry.underTarget(id) || contains(taken, takenCount, s)) {
                continue;
            }
            int load = registry.ongoing(id);
            if (load < bestLoad) {
                best = s;
                bestLoad = load;
                ties = 1;
            } else if (load == bestLoad && rnd.nextInt(++ties) == 0) {
                best = s;
            }
        }
        return best;
    }

    private static boolean contains(int[] a, int n, int v) {
        for (int i = 0; i < n; i++) {
            if (a[i] == v) {
                return true;
            }
        }
        return false;
    }
}
