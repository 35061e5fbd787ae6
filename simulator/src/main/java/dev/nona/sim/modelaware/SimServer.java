package dev.nona.sim.modelaware;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One machine: free cores for request processes, and one model replica that serves its FIFO queue one
 * inference (or one model load) at a time. Not thread-safe.
 */
final class SimServer {
    final String id;
    private int freeCores;
    private boolean replicaBusy;
    private final Deque<SimRequest> replicaQueue = new ArrayDeque<>();

    SimServer(String id, int cores) {
        this.id = id;
        this.freeCores = cores;
    }

    boolean hasRoom(int cores) {
        return freeCores >= cores;
    }

    void reserve(int cores) {
        if (freeCores < cores) {
            throw new IllegalStateException("BUG: server " + id + " has " + freeCores + " free cores, not " + cores);
        }
        freeCores -= cores;
    }

    void release(int cores) {
        freeCores += cores;
    }

    void enqueue(SimRequest r) {
        replicaQueue.add(r);
    }

    /** The next request the replica should serve, or null when it is busy or idle with nothing queued. */
    SimRequest nextForReplica() {
        if (replicaBusy || replicaQueue.isEmpty()) {
            return null;
        }
        replicaBusy = true;
        return replicaQueue.poll();
    }

    void replicaDone() {
        replicaBusy = false;
    }
}
