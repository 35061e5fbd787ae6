package dev.nona.placement;

import java.util.Arrays;

/**
 * The bytes one request already puts on each server it uses (its parts placed so far), so that a further part goes
 * to a server only where it fits beside them. A request uses few servers: a linear list. Reused per request; does
 * not allocate once grown. Not thread-safe.
 */
public final class Footprint {
    /** Bytes on a server besides the request's own, asked per server when a part is fitted. */
    @FunctionalInterface
    public interface Beside {
        double on(int s);
    }

    private int[] servers = new int[8];
    private double[] bytes = new double[8];
    private int count;
    /** Counted on each server besides the request's own bytes, or null. */
    private Beside beside;

    /** Forgets the previous request. */
    public void clear() {
        count = 0;
        beside = null;
    }

    /** The request's bytes on server {@code s} so far, and those {@link #besides} counts there. */
    public double on(int s) {
        double b = beside == null ? 0 : beside.on(s);
        for (int i = 0; i < count; i++) {
            if (servers[i] == s) {
                return bytes[i] + b;
            }
        }
        return b;
    }

    /** This footprint as {@code other} is, counting {@code beside} on each server too. */
    public void copyOf(Footprint other, Beside beside) {
        count = 0;
        for (int i = 0; i < other.count; i++) {
            add(other.servers[i], other.bytes[i]);
        }
        this.beside = beside;
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
