package dev.nona.dag;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Set partitions: counting them with Stirling numbers of the second kind and generating them as
 * restricted growth strings ($a_0 = 0$, $a_i \le 1 + \max_{j<i} a_j$), in lexicographic order.
 * Stateless, thread-safe.
 */
public final class SetPartitions {
    private SetPartitions() {
    }

    /** $S(m,k)$ for $0 \le k \le m$: row {@code m} of the Stirling numbers of the second kind. */
    public static BigInteger[] stirlingRow(int m) {
        BigInteger[] row = {BigInteger.ONE};
        for (int n = 1; n <= m; n++) {
            BigInteger[] next = new BigInteger[n + 1];
            next[0] = BigInteger.ZERO;
            for (int k = 1; k <= n; k++) {
                BigInteger carry = k <= n - 1 ? row[k].multiply(BigInteger.valueOf(k)) : BigInteger.ZERO;
                next[k] = carry.add(row[k - 1]);
            }
            row = next;
        }
        return row;
    }

    /** $\sum_{k=1}^{K} S(m,k)\,k^2$: the number of triplets over partitions of $m$ items into at most $K$ parts. */
    public static BigInteger tripletCount(int m, int maxParts) {
        BigInteger[] row = stirlingRow(m);
        BigInteger sum = BigInteger.ZERO;
        for (int k = 1; k <= Math.min(m, maxParts); k++) {
            sum = sum.add(row[k].multiply(BigInteger.valueOf((long) k * k)));
        }
        return sum;
    }

    /**
     * Calls {@code visitor} with every partition of {@code m} items into at most {@code maxParts} parts,
     * as its restricted growth string (item $i$ is in part $a_i$); the array is reused between calls.
     */
    public static void forEach(int m, int maxParts, Consumer<int[]> visitor) {
        if (m == 0) {
            return;
        }
        int[] a = new int[m];
        int[] max = new int[m]; // max[i] = max(a[0..i])
        while (true) {
            visitor.accept(a);
            int i = m - 1;
            while (i > 0 && (a[i] > max[i - 1] || a[i] + 1 >= maxParts)) {
                i--;
            }
            if (i == 0) {
                return;
            }
            a[i]++;
            max[i] = Math.max(max[i - 1], a[i]);
            for (int j = i + 1; j < m; j++) {
                a[j] = 0;
                max[j] = max[i];
            }
        }
    }

    /** Groups {@code items} by the restricted growth string {@code rgs}: part $p$ holds items with $a_i = p$. */
    public static <T> List<List<T>> parts(List<T> items, int[] rgs) {
        List<List<T>> parts = new ArrayList<>();
        for (int i = 0; i < rgs.length; i++) {
            if (rgs[i] == parts.size()) {
                parts.add(new ArrayList<>());
            }
            parts.get(rgs[i]).add(items.get(i));
        }
        return parts;
    }
}
