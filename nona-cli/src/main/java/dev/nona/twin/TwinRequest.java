package dev.nona.twin;

import dev.nona.topics.record.PlacementDecision;
import java.util.Arrays;

/**
 * One decision being executed on the twin: where each task runs, the inputs each task still waits for, and its
 * parts (a part is the decision's stages on one server): when each started and finished, whether it started
 * cold, its compute seconds and its stages still to finish; with part caches, which parts hold their memory and
 * which have loaded. Times are the engine's seconds. Mutable; owned by {@link TwinCluster}.
 */
final class TwinRequest {
    final long id;
    final PlacementDecision decision;
    final TwinModel model;
    /** The model's index in the engine's model caches, or {@code Engine.NO_MODEL}. */
    final int cacheModel;
    /** Engine seconds when the twin received the decision: the request's arrival on the simulated cluster. */
    final double receivedAt;
    /** Per task: its server and its part. */
    final int[] server;
    final int[] partOf;
    final int[] pendingInputs;
    /** Per part, in order of first appearance in the decision: its server, stages left, times, coldness. */
    final int[] partServer;
    final int[] leftInPart;
    final double[] partStart;
    final double[] partFinish;
    final double[] partCompute;
    final boolean[] partCold;
    /** With part caches: the model's index in them, each part's tasks of nonzero ops (what it caches) and whether
     * its load has begun; per task, whether it pins its unit (ready or running) and whether it is ready but waits
     * for memory. */
    int partModel = -1;
    int[][] partTasks;
    boolean[] partLoaded;
    boolean[] pinned;
    boolean[] readyWaiting;
    int remainingTasks;
    double linkBytes;
    /** Completed or timed out: later engine callbacks for its items are ignored. */
    boolean ended;

    TwinRequest(long id, PlacementDecision decision, TwinModel model, int cacheModel, double receivedAt, int[] server) {
        this.id = id;
        this.decision = decision;
        this.model = model;
        this.cacheModel = cacheModel;
        this.receivedAt = receivedAt;
        this.server = server;
        int n = model.tasks();
        this.partOf = new int[n];
        this.pendingInputs = new int[n];
        int[] servers = new int[n];
        int parts = 0;
        for (int t = 0; t < n; t++) {
            int p = 0;
            while (p < parts && servers[p] != server[t]) {
                p++;
            }
            if (p == parts) {
                servers[parts++] = server[t];
            }
            partOf[t] = p;
            pendingInputs[t] = model.inDegree(t);
        }
        this.partServer = Arrays.copyOf(servers, parts);
        this.leftInPart = new int[parts];
        for (int t = 0; t < n; t++) {
            leftInPart[partOf[t]]++;
        }
        this.partStart = new double[parts];
        this.partFinish = new double[parts];
        this.partCompute = new double[parts];
        this.partCold = new boolean[parts];
        Arrays.fill(partStart, Double.NaN);
        Arrays.fill(partFinish, Double.NaN);
        this.remainingTasks = n;
    }

    /** Sets up the part caches' bookkeeping for model index {@code partModel}. */
    void cacheParts(int partModel) {
        this.partModel = partModel;
        int parts = parts();
        int[] count = new int[parts];
        for (int t = 0; t < model.tasks(); t++) {
            if (model.ops(t) > 0) {
                count[partOf[t]]++;
            }
        }
        this.partTasks = new int[parts][];
        for (int p = 0; p < parts; p++) {
            partTasks[p] = new int[count[p]];
            count[p] = 0;
        }
        for (int t = 0; t < model.tasks(); t++) {
            if (model.ops(t) > 0) {
                partTasks[partOf[t]][count[partOf[t]]++] = t;
            }
        }
        this.partLoaded = new boolean[parts];
        this.pinned = new boolean[model.tasks()];
        this.readyWaiting = new boolean[model.tasks()];
    }

    int parts() {
        return partServer.length;
    }

    /** Task {@code t} started (or, for a task of no compute, ran) at {@code now}. */
    void started(int t, double now, boolean cold) {
        int p = partOf[t];
        if (!(partStart[p] <= now)) {
            partStart[p] = now;
        }
        partCold[p] |= cold;
    }
}
