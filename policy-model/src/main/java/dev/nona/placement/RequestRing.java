package dev.nona.placement;

/**
 * One server's requests sent by this placer since its last report, in send order: each request's send time and its
 * seconds of work there. A ring of growable capacity (a power of two), so dropping the oldest and appending do not
 * allocate once it has grown to the requests in flight. Send times are non-decreasing along the ring (the placer's
 * clock). Not thread-safe.
 */
final class RequestRing {
    private double[] sent = new double[4];
    private double[] work = new double[4];
    private int head;
    private int size;

    /** Requests held. */
    int size() {
        return size;
    }

    /** The slots' capacity (for tests: it follows the requests in flight). */
    int capacity() {
        return sent.length;
    }

    /** The send time of the {@code i}-th oldest request, {@code 0 <= i < size()}. */
    double sent(int i) {
        return sent[slot(i)];
    }

    /** The work (seconds) of the {@code i}-th oldest request, {@code 0 <= i < size()}. */
    double work(int i) {
        return work[slot(i)];
    }

    private int slot(int i) {
        return (head + i) & (sent.length - 1);
    }

    /** Appends a request sent at {@code at} with {@code w} seconds of work. */
    void add(double at, double w) {
        if (size == sent.length) {
            grow();
        }
        int k = slot(size);
        sent[k] = at;
        work[k] = w;
        size++;
    }

    void clear() {
        head = 0;
        size = 0;
    }

    /** Drops the oldest request; the ring must not be empty. */
    void dropOldest() {
        head = (head + 1) & (sent.length - 1);
        size--;
    }

    /** Drops the requests sent at or before {@code at}. */
    void dropSentBy(double at) {
        while (size > 0 && sent[head] <= at) {
            head = (head + 1) & (sent.length - 1);
            size--;
        }
    }

    /** Reads the head slot and the size and returns their sum; changes nothing ({@link ReadAhead}). */
    double touch() {
        return size + sent[head] + work[head];
    }

    private void grow() {
        double[][] next = {new double[sent.length * 2], new double[sent.length * 2]};
        for (int i = 0; i < size; i++) {
            int k = slot(i);
            next[0][i] = sent[k];
            next[1][i] = work[k];
        }
        sent = next[0];
        work = next[1];
        head = 0;
    }
}
