package dev.nona.sim.policy.theta;

import dev.nona.sim.JobClass;
import dev.nona.sim.engine.ClusterView;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * A mapping split over {@code k} independent instances, each job handled by one drawn uniformly: the controller's
 * placement operator at parallelism $k$, where requests are spread over subtasks by key and each subtask keeps its
 * own ledger, so each sees about $1/k$ of the requests between two reports (each may own a share of the servers:
 * {@link LedgerMapping#LedgerMapping(int, double, double, int, int)}).
 */
public final class ShardedMapping implements ServerMapping {
    private final ServerMapping[] shards;
    private ServerMapping current;

    /** @param shard builds shard {@code i} of {@code k} */
    public ShardedMapping(int k, IntFunction<ServerMapping> shard) {
        if (k < 1) {
            throw new IllegalArgumentException("shards (" + k + ") must be >= 1");
        }
        shards = new ServerMapping[k];
        for (int i = 0; i < k; i++) {
            shards[i] = shard.apply(i);
        }
    }

    @Override
    public int first(ClusterView view, SplittableRandom random) {
        current = shards[random.nextInt(shards.length)];
        return current.first(view, random);
    }

    @Override
    public int other(ClusterView view, SplittableRandom random, ServerPicker picker) {
        return current.other(view, random, picker);
    }

    @Override
    public void placed(JobClass jobClass, int[] servers, ClusterView view) {
        current.placed(jobClass, servers, view);
    }

    @Override
    public String toString() {
        return shards.length + " x " + shards[0];
    }
}
