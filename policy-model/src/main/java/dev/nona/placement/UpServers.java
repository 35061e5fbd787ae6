package dev.nona.placement;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * The servers that may be picked, in a list with each server's position in it, so that a server comes and goes in
 * $O(1)$ and a uniform pick among them (the ledger's last resort, when a request has taken every up server) is
 * $O(1)$. Not thread-safe.
 */
final class UpServers {
    private boolean[] up = new boolean[0];
    private int[] list = new int[0];
    private int[] position = new int[0];
    private int count;
    private int n;

    /** Adds server {@code n}, down. */
    void addServer() {
        if (n == up.length) {
            int c = Math.max(4, 2 * n);
            up = Arrays.copyOf(up, c);
            list = Arrays.copyOf(list, c);
            position = Arrays.copyOf(position, c);
        }
        position[n++] = -1;
    }

    boolean isUp(int s) {
        return up[s];
    }

    int count() {
        return count;
    }

    /** Marks server {@code s} up or down; returns whether that changed anything. */
    boolean set(int s, boolean isUp) {
        if (up[s] == isUp) {
            return false;
        }
        up[s] = isUp;
        if (isUp) {
            position[s] = count;
            list[count++] = s;
        } else {
            int last = list[--count];
            list[position[s]] = last;
            position[last] = position[s];
            position[s] = -1;
        }
        return true;
    }

    /**
     * Any up server uniformly, or one not {@link ServerLedger.Taken#excluded} uniformly ($O(N)$, only when the
     * request excludes servers), or -1 when every up server is excluded. At least one server must be up.
     */
    int any(ServerLedger.Taken taken, RandomGenerator rng) {
        if (!taken.excludes()) {
            return list[rng.nextInt(count)];
        }
        int chosen = -1;
        int seen = 0;
        for (int i = 0; i < count; i++) {
            int s = list[i];
            if (!taken.excluded(s) && rng.nextInt(++seen) == 0) {
                chosen = s;
            }
        }
        return chosen;
    }
}
