package dev.nona.placement;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Each ruled tenant's share of what one placer placed lately: for a request at event time $t$, the tenant's units
 * over all units this placer placed with event times in the last {@link #WINDOW_SECONDS} whole seconds (the second
 * of $t$ and the 9 before it; event time in epoch ms, as in the controller). A unit is what the caller counts:
 * {@link ServerRules} counts requests. Zero when the window holds nothing. Each placement subtask counts its own requests (requests are spread over the subtasks, so each sees
 * about the same mix).
 *
 * <p>Kept in {@link #WINDOW_SECONDS} one-second buckets: {@link #add} and {@link #share} are $O(1)$ in the requests
 * (a bucket reused for a new second is cleared for every ruled tenant, $O(\text{tenants})$ once per second).
 * A unit older than the window is not counted. Not thread-safe.
 */
public final class TenantShares {
    /** The window, in whole seconds. */
    public static final int WINDOW_SECONDS = 10;

    private final long[] second = new long[WINDOW_SECONDS];
    private final long[] total = new long[WINDOW_SECONDS];
    private final Map<String, long[]> byTenant = new HashMap<>();

    public TenantShares() {
        Arrays.fill(second, Long.MIN_VALUE);
    }

    /** Counts from now on the units of {@code tenant} (others count only in the total); idempotent. */
    public void track(String tenant) {
        byTenant.computeIfAbsent(tenant, t -> new long[WINDOW_SECONDS]);
    }

    /** Stops counting {@code tenant}'s units apart. */
    public void untrack(String tenant) {
        byTenant.remove(tenant);
    }

    /** Counts {@code units} units of {@code tenant} placed at {@code eventTimeMillis}. */
    public void add(String tenant, int units, long eventTimeMillis) {
        long sec = Math.floorDiv(eventTimeMillis, 1000);
        int i = (int) Math.floorMod(sec, (long) WINDOW_SECONDS);
        if (second[i] != sec) {
            if (second[i] > sec) {
                return; // older than the window (a newer second holds the bucket)
            }
            second[i] = sec;
            total[i] = 0;
            for (long[] counts : byTenant.values()) {
                counts[i] = 0;
            }
        }
        total[i] += units;
        long[] counts = byTenant.get(tenant);
        if (counts != null) {
            counts[i] += units;
        }
    }

    /** {@code tenant}'s share at {@code eventTimeMillis}, in $[0, 1]$ (0 when untracked or the window is empty). */
    public double share(String tenant, long eventTimeMillis) {
        long[] counts = byTenant.get(tenant);
        if (counts == null) {
            return 0;
        }
        long sec = Math.floorDiv(eventTimeMillis, 1000);
        long mine = 0;
        long all = 0;
        for (int i = 0; i < WINDOW_SECONDS; i++) {
            if (second[i] <= sec && second[i] > sec - WINDOW_SECONDS) {
                mine += counts[i];
                all += total[i];
            }
        }
        return all == 0 ? 0 : (double) mine / all;
    }
}
