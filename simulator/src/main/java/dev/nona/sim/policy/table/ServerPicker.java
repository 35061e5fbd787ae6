package dev.nona.sim.policy.table;

import dev.nona.placement.ServerLedger;
import java.util.SplittableRandom;

/**
 * Picks servers uniformly at random, distinct from the ones already picked for the same subgraph (Nona: distinct
 * parts run on distinct servers). When a subgraph has more parts than there are servers, servers repeat.
 */
public final class ServerPicker implements ServerLedger.Taken {
    private final int[] used;
    private int count;

    public ServerPicker(int maxParts) {
        this.used = new int[Math.max(1, maxParts)];
    }

    public void reset(int first) {
        used[0] = first;
        count = 1;
    }

    /** A uniformly random server among {@code n} not picked since the last {@link #reset}, when one exists. */
    public int pick(SplittableRandom random, int n) {
        int s;
        int tries = 0;
        do {
            s = random.nextInt(n);
        } while (contains(s) && count < n && ++tries < 64);
        if (contains(s) && count < n) {
            for (s = 0; contains(s); s++) {
                // linear scan after many collisions; only when nearly every server is used
            }
        }
        if (count < used.length) {
            used[count++] = s;
        }
        return s;
    }

    /** Whether {@code s} was picked (or taken) since the last {@link #reset}. */
    public boolean taken(int s) {
        return contains(s);
    }

    /** Records {@code s} as used, when a caller chose it by another rule. */
    public void take(int s) {
        if (count < used.length && !contains(s)) {
            used[count++] = s;
        }
    }

    /** Un-picks {@code s} if it was the last or second-to-last pick (used to keep only the better of two). */
    public void forgetLast(int s) {
        for (int i = count - 1; i >= Math.max(1, count - 2); i--) {
            if (used[i] == s) {
                used[i] = used[count - 1];
                count--;
                return;
            }
        }
    }

    private boolean contains(int s) {
        for (int i = 0; i < count; i++) {
            if (used[i] == s) {
                return true;
            }
        }
        return false;
    }
}
