package dev.nona.placement;

import java.util.Arrays;

/**
 * The bytes one request already puts on each server it uses (its parts placed so far), so that a further part goes
 * to a server only where it fits beside them. A request uses few servers: a linear list. Reused per request; does
 * not allocate once grown. Not thread-safe.
 */
public final class Footprint {
    private int[] servers = new int[8];
    private double[] bytes = new double[8];
    private int count;

    /** Forgets the previous request. */
    public void clear() {
        count = 0;
    }

    /** The request's bytes on server {@code s} so far. */
    public double on(int s) {
        for (int i = 0; i < count; i++) {
            if (servers[i] == s) {
                return bytes[i];
            }
        }
        return 0;
    }

    /** This footprint as {@code other} is. */
    public void copyOf(Footprint other) {
        count = 0;
        for (int i = 0; i < other.count; i++) {
            add(other.servers[i], other.bytes[i]);
        }
    }

    /** Adds {@code b} bytes of the request on server {@code s}. */
    public void add(int s, double b) {
        for (int i = 0; i < count; i++) {
            if (servers[i] == s) {
                bytes[i] += b;
                return;
            }
        }
        if (count == servers.length) {
            servers = Arrays.copyOf(servers, 2 * count);
            bytes = Arrays.copyOf(bytes, 2 * count);
        }
        servers[count] = s;
        bytes[count++] = b;
    }
}
