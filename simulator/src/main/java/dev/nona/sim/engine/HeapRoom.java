package dev.nona.sim.engine;

/**
 * Whether the heap has room for the per-server arrays a run is about to allocate, asked before it does: a cluster too
 * large for the heap is then an error that names it and what to do, where it was an {@link OutOfMemoryError} at
 * the first array (2,000,000,000 servers in a 2 GB heap; or 1,000,000 servers with model caches of
 * {@code examples/memory-bound.json}'s models). The room is the heap's most less what it holds now; garbage counts as
 * held until a collection, so a short answer is asked again after one ({@link System#gc}) before it is believed.
 */
final class HeapRoom {
    private HeapRoom() {
    }

    /**
     * Throws {@link IllegalArgumentException} naming {@code what} when {@code bytes} are more than the heap has room
     * for.
     *
     * @param what what needs them, e.g. "the simulated cluster's 10000000 servers"
     */
    static void require(long bytes, String what) {
        if (bytes <= room()) {
            return;
        }
        System.gc();
        long room = room();
        if (bytes > room) {
            throw new IllegalArgumentException(what + " need about " + mib(bytes) + " MiB of heap, more than the "
                    + mib(room) + " MiB it has room for: simulate fewer servers, or raise the heap (-Xmx; for "
                    + "bin/nona, NONA_JAVA_OPTS=-Xmx8g)");
        }
    }

    /** The heap's most less what it holds now, bytes. */
    static long room() {
        Runtime r = Runtime.getRuntime();
        return r.maxMemory() - (r.totalMemory() - r.freeMemory());
    }

    private static long mib(long bytes) {
        return (bytes + (1 << 20) - 1) >> 20;
    }
}
