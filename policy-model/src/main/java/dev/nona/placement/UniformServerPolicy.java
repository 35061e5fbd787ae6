package dev.nona.placement;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Nona's online rule: sources uniformly over the eligible servers, other parts uniformly over the eligible servers
 * not yet used by the subgraph (rejection sampling, then a scan, so it terminates). When fewer servers are eligible
 * than a triplet has parts, parts share servers (uniformly) rather than fail. Immutable and thread-safe; does not
 * allocate.
 */
public final class UniformServerPolicy implements ServerPolicy {
    private static final int TRIES = 32;
    private final int[] servers;

    /** @param eligibleServers server ids, at least one, no duplicates */
    public UniformServerPolicy(int[] eligibleServers) {
        if (eligibleServers.length == 0) {
            throw new IllegalArgumentException("eligible servers must not be empty");
        }
        this.servers = eligibleServers.clone();
        if (Arrays.stream(servers).distinct().count() != servers.length) {
            throw new IllegalArgumentException("eligible servers contain duplicates");
        }
    }

    /** Servers {@code 0..n-1}. */
    public static UniformServerPolicy ofRange(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("servers (" + n + ") must be >= 1");
        }
        int[] s = new int[n];
        for (int i = 0; i < n; i++) {
            s[i] = i;
        }
        return new UniformServerPolicy(s);
    }

    @Override
    public int sourceServer(int model, RandomGenerator rnd) {
        return servers[index(rnd, servers.length)];
    }

    /**
     * A uniform index in [0, n) by multiply-and-shift of 32 random bits (no division, unlike
     * {@code nextInt(n)}); the bias is below $n/2^{32}$.
     */
    private static int index(RandomGenerator rnd, int n) {
        return (int) (((rnd.nextLong() >>> 32) * n) >>> 32);
    }

    @Override
    public int partServer(int model, int[] taken, int takenCount, RandomGenerator rnd) {
        if (takenCount >= servers.length) {
            return servers[index(rnd, servers.length)];
        }
        for (int i = 0; i < TRIES; i++) {
            int s = servers[index(rnd, servers.length)];
            if (!contains(taken, takenCount, s)) {
                return s;
            }
        }
        int start = rnd.nextInt(servers.length);
        for (int i = 0; i < servers.length; i++) {
            int s = servers[(start + i) % servers.length];
            if (!contains(taken, takenCount, s)) {
                return s;
            }
        }
        throw new IllegalStateException("BUG: no free server although " + takenCount + " < " + servers.length);
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
