package dev.nona.placement;

import java.util.random.RandomGenerator;

/**
 * Chooses concrete servers during online placement: the server of a job's source, and a server for each further
 * part of a triplet. Nona places sources uniformly ({@link UniformServerPolicy}); a model-aware policy can prefer
 * servers where the model is warm. Implementations used on the hot path should not allocate.
 */
public interface ServerPolicy {
    /** The server of the source of a request for model {@code model} (index in the table). */
    int sourceServer(int model, RandomGenerator rnd);

    /**
     * A server for another part of the same subgraph: not one of {@code taken[0..takenCount)} when enough servers
     * are eligible.
     */
    int partServer(int model, int[] taken, int takenCount, RandomGenerator rnd);

    /**
     * As {@link #sourceServer(int, RandomGenerator)} when the part that will run on the source's server is known:
     * {@code ops} operations and {@code bytes} bytes over the whole request ({@link PlacementSampler#placeSized}).
     */
    default int sourceServer(int model, double ops, double bytes, RandomGenerator rnd) {
        return sourceServer(model, rnd);
    }

    /** As {@link #partServer(int, int[], int, RandomGenerator)} for a part of {@code ops} operations and {@code bytes}. */
    default int partServer(int model, int[] taken, int takenCount, double ops, double bytes, RandomGenerator rnd) {
        return partServer(model, taken, takenCount, rnd);
    }
}
