package dev.nona.placement;

import java.util.function.IntToDoubleFunction;

/**
 * A CPU-cache read-ahead for the next pick. At thousands of servers the server the next pick of a pool starts from
 * is one not used for thousands of requests, so its state is out of the caches and each read on the pick's path
 * waits for the one before. Read right after a request is recorded ({@link ServerLedger#assignRequest}), those reads
 * are independent of each other and overlap with the caller's work that follows (writing the decision). It reads the
 * ledger's state of that server ({@link PickIndex#touch}, {@link LoadForecast#touch}, {@link WarmPools#touch}) and
 * the caller's ({@link ServerLedger#readAheadAlso}), and keeps their sum in a field so the reads are not optimised
 * away; it changes nothing a pick reads.
 *
 * <p>Only from {@link #DEFAULT_FROM} servers: below, the state stays in the caches and reading it again only costs (at
 * 16 servers 3&ndash;4% per request). The system property {@code nona.placement.readAhead=false} switches it off,
 * for measuring whether it still pays ({@code bench pipeline} at 10,000 servers). Not thread-safe.
 */
final class ReadAhead {
    /** Servers from which it reads ahead. */
    static final int DEFAULT_FROM = 1024;
    /** Whether it reads ahead at all (for measurements: placements are the same either way). */
    static final boolean ENABLED = !"false".equals(System.getProperty("nona.placement.readAhead"));

    private final int from;
    private IntToDoubleFunction also = s -> 0;
    /** The sum of what was read (never used otherwise). */
    private double sink;
    private long reads;

    /** @param from servers from which it reads ahead ({@link Integer#MAX_VALUE}: never) */
    ReadAhead(int from) {
        this.from = ENABLED ? from : Integer.MAX_VALUE;
    }

    /** Also reads {@code reader}'s state of the server (e.g. its id), from the next read-ahead on. */
    void also(IntToDoubleFunction reader) {
        this.also = reader;
    }

    /**
     * Reads ahead for the next pick of {@code warmPool} ({@link ServerLedger#EVERY_SERVER}, {@link
     * ServerLedger#NO_SERVER} or a pool) among {@code servers} servers. $O(1)$.
     */
    void next(int warmPool, int servers, PickIndex index, LoadForecast forecast, WarmPools pools) {
        if (servers < from) {
            return;
        }
        int s = index.next(warmPool);
        if (s >= 0) {
            sink += index.touch(warmPool, s) + forecast.touch(s) + pools.touch(s) + also.applyAsDouble(s);
            reads++;
        }
    }

    /** Servers read ahead so far (for tests). */
    long reads() {
        return reads;
    }
}
