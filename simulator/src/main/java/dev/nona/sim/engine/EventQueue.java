package dev.nona.sim.engine;

import java.util.Arrays;

/**
 * A binary min-heap of events keyed by time, on primitive arrays (no boxing, no per-event object). Each event is
 * a {@code long} payload; ties in time pop in insertion order, so a run is deterministic.
 *
 * <p>Not thread-safe. $O(\log n)$ push and pop.
 */
public final class EventQueue {
    private double[] time = new double[64];
    private long[] seq = new long[64];
    private long[] payload = new long[64];
    private int size;
    private long nextSeq;

    public void push(double t, long event) {
        if (size == time.length) {
            int n = size * 2;
            time = Arrays.copyOf(time, n);
            seq = Arrays.copyOf(seq, n);
            payload = Arrays.copyOf(payload, n);
        }
        int i = size++;
        long s = nextSeq++;
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (!less(t, s, time[p], seq[p])) {
                break;
            }
            time[i] = time[p];
            seq[i] = seq[p];
            payload[i] = payload[p];
            i = p;
        }
        time[i] = t;
        seq[i] = s;
        payload[i] = event;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** Time of the earliest event; undefined when empty. */
    public double peekTime() {
        return time[0];
    }

    /** Removes the earliest event and returns its payload; read its time with {@link #peekTime()} first. */
    public long pop() {
        long top = payload[0];
        int n = --size;
        if (n > 0) {
            double t = time[n];
            long s = seq[n];
            long v = payload[n];
            int i = 0;
            while (true) {
                int c = 2 * i + 1;
                if (c >= n) {
                    break;
                }
                if (c + 1 < n && less(time[c + 1], seq[c + 1], time[c], seq[c])) {
                    c++;
                }
                if (!less(time[c], seq[c], t, s)) {
                    break;
                }
                time[i] = time[c];
                seq[i] = seq[c];
                payload[i] = payload[c];
                i = c;
            }
            time[i] = t;
            seq[i] = s;
            payload[i] = v;
        }
        return top;
    }

    private static boolean less(double t1, long s1, double t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }
}
