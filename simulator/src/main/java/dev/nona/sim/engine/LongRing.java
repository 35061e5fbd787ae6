package dev.nona.sim.engine;

import java.util.Arrays;

/** A growable FIFO of {@code long}s with a {@code double} tag each (e.g. the enqueue time), on primitive arrays. */
final class LongRing {
    private long[] values = new long[16];
    private double[] tags = new double[16];
    private int head;
    private int size;

    void add(long value, double tag) {
        if (size == values.length) {
            grow();
        }
        int i = (head + size) & (values.length - 1);
        values[i] = value;
        tags[i] = tag;
        size++;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    double peekTag() {
        return tags[head];
    }

    long poll() {
        long v = values[head];
        head = (head + 1) & (values.length - 1);
        size--;
        return v;
    }

    private void grow() {
        int n = values.length * 2;
        long[] v = new long[n];
        double[] t = new double[n];
        for (int i = 0; i < size; i++) {
            int j = (head + i) & (values.length - 1);
            v[i] = values[j];
            t[i] = tags[j];
        }
        values = v;
        tags = t;
        head = 0;
        Arrays.fill(values, size, n, 0L);
    }
}
