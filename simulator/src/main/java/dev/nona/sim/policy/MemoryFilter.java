package dev.nona.sim.policy;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.engine.ClusterView;

/**
 * How a policy keeps off the servers that cannot hold a part, once it has chosen a server for every task: each part
 * (the job's tasks on one server) that does not fit its server ({@link ClusterView#fits}, with the job's other
 * tasks already there) moves whole to the server with the least queued work that can hold it, with the job's tasks
 * already there; the scan starts after the refused server, so ties do not pile onto server 0. A part that fits
 * nowhere stays (the engine then refuses it and counts a memory violation).
 *
 * <p>A no-op when the view's memory is not modelled ({@link ClusterView#memoryBounded} false): the policy's choices
 * and random draws are then exactly those of the paper's cluster. It draws no random numbers. One instance per
 * policy (it keeps scratch arrays); not thread-safe.
 */
public final class MemoryFilter {
    private int[] part = new int[16];
    private int[] checked = new int[16];
    private int stamp;

    /** Moves every part of the job ({@code servers[t]} for its task {@code t}) that does not fit its server. */
    public void apply(ClusterView view, int classIndex, SimJobClass jobClass, int[] servers) {
        if (!view.memoryBounded()) {
            return;
        }
        int n = jobClass.tasks();
        if (part.length < n) {
            part = new int[2 * n];
        }
        if (checked.length < view.servers()) {
            checked = new int[view.servers()];
        }
        stamp++;
        for (int t = 0; t < n; t++) {
            int s = servers[t];
            if (jobClass.taskOps(t) == 0 || checked[s] == stamp) {
                continue;
            }
            checked[s] = stamp;
            int k = collect(jobClass, servers, s, 0);
            if (!view.fits(s, classIndex, part, k)) {
                int to = refuge(view, classIndex, jobClass, servers, s, k);
                if (to >= 0) {
                    for (int i = 0; i < k; i++) {
                        servers[part[i]] = to;
                    }
                    checked[to] = stamp;
                }
            }
        }
    }

    /** Appends to {@code part} (from {@code k}) the job's tasks of non-zero ops on {@code s}; returns the new count. */
    private int collect(SimJobClass jobClass, int[] servers, int s, int k) {
        for (int t = 0; t < jobClass.tasks(); t++) {
            if (servers[t] == s && jobClass.taskOps(t) > 0) {
                part[k++] = t;
            }
        }
        return k;
    }

    /** The least-loaded server other than {@code from} that holds the part {@code part[0..k)} with the job's tasks already there, or -1. */
    private int refuge(ClusterView view, int classIndex, SimJobClass jobClass, int[] servers, int from, int k) {
        int n = view.servers();
        int best = -1;
        double bestWork = Double.POSITIVE_INFINITY;
        for (int i = 1; i < n; i++) {
            int s = (from + i) % n;
            double w = view.queuedWorkSeconds(s);
            if (w >= bestWork) {
                continue;
            }
            int all = collect(jobClass, servers, s, k);
            if (view.fits(s, classIndex, part, all)) {
                best = s;
                bestWork = w;
            }
        }
        return best;
    }
}
