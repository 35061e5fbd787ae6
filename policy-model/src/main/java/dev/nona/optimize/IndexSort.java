package dev.nona.optimize;

/** Sorts index ranges by one or two primitive double keys without boxing (stable merge sort). */
final class IndexSort {
    private IndexSort() {}

    /**
     * Sorts {@code idx[from, to)} by {@code primary[idx]} ascending, then {@code secondary[idx]} ascending
     * ({@code secondary} may be null). {@code tmp} is scratch of at least {@code to} entries.
     */
    static void sort(int[] idx, int from, int to, double[] primary, double[] secondary, int[] tmp) {
        if (to - from < 2) {
            return;
        }
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) {
                int v = idx[i];
                int j = i - 1;
                while (j >= from && less(v, idx[j], primary, secondary)) {
                    idx[j + 1] = idx[j];
                    j--;
                }
                idx[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sort(idx, from, mid, primary, secondary, tmp);
        sort(idx, mid, to, primary, secondary, tmp);
        if (!less(idx[mid], idx[mid - 1], primary, secondary)) {
            return;
        }
        System.arraycopy(idx, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && !less(tmp[j], tmp[i], primary, secondary))) {
                idx[k] = tmp[i++];
            } else {
                idx[k] = tmp[j++];
            }
        }
    }

    private static boolean less(int x, int y, double[] primary, double[] secondary) {
        if (primary[x] != primary[y]) {
            return primary[x] < primary[y];
        }
        return secondary != null && secondary[x] < secondary[y];
    }
}
