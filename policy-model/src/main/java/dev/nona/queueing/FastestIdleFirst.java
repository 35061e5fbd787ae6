package dev.nona.queueing;

import java.util.Arrays;

/**
 * The speed a part sees in a pool of servers of several speed classes, our model of the controller's mapping on a
 * heterogeneous cluster (beyond the Nona paper). The controller sends a part to the server with the least expected
 * finish among those that can hold it: when some are idle, that is the fastest idle one; when all are busy, the part
 * waits in the pooled queue ({@link PooledServers#waits}) and takes the first server to free up. Classes
 * $c = 1, \dots, n$ of the pool, sorted by speed $\nu_1 > \dots > \nu_n$ (equal speeds merged), have $N_c$ servers
 * and capacity $K_c = N_c \nu_c$ ops/s, $C = \sum_c K_c$.
 *
 * <p><b>Which servers are busy.</b> The offered work $x = u C$ ($u$ the pool's utilisation) fills the servers from
 * the fastest class down (that is where fastest-idle-first sends it): class $c$ keeps
 * $b_c = \min(K_c, \max(0, x - X_{c-1}))/\nu_c$ servers busy, $X_c = K_1 + \dots + K_c$. The servers of the $c$
 * fastest classes, $M_c = N_1 + \dots + N_c$ of them, are then all busy with the Erlang C probability
 * $B_c = C(M_c, b_1 + \dots + b_c)$ (as if they were an M/M/$M_c$ queue at that load); $B_0 = 1$.
 *
 * <p><b>Where a part lands.</b> On class $c$ when the faster ones are all busy but class $c$ has an idle server,
 * probability $B_{c-1} - B_c$; when every server is busy ($B_n$, the pooled queue's probability of waiting) on the
 * first to free up, which is a server of class $c$ with probability $K_c / C$ (servers finish work at their speed).
 * So its expected time per operation is
 * $$\tau = \sum_{c=1}^{n} \frac{B_{c-1} - B_c}{\nu_c} + B_n \sum_c \frac{K_c}{C}\frac{1}{\nu_c}
 * = \sum_{c=1}^{n} \frac{B_{c-1} - B_c}{\nu_c} + \frac{B_n}{\bar\nu}, \qquad \bar\nu = \frac{C}{\sum_c N_c},$$
 * and the effective speed is $\nu_{eff} = 1/\tau$: the fastest class's $\nu_1$ at $u \to 0$, the count-weighted mean
 * $\bar\nu$ at $u \to 1$, always between $\nu_n$ and $\nu_1$. It is not monotone in $u$: as the fast classes fill,
 * parts land on slower ones and it falls toward $\nu_n$; near $u = 1$ every server is busy and the pooled queue's
 * first free server (the mean $\bar\nu$) takes over. (The controller would rather wait for a fast server than take a
 * free slow one when the wait is shorter; the model does not, so it is pessimistic where slow servers are idle.)
 * With one speed it is that speed exactly.
 *
 * <p>Cost $O(n \cdot M)$ for the Erlang C recursions. Stateless and thread-safe.
 */
public final class FastestIdleFirst {
    private FastestIdleFirst() {}

    /**
     * $\nu_{eff} = 1/\tau$ of the class comment.
     *
     * @param counts $N_c$ per class, each $\ge 1$
     * @param speeds $\nu_c$ per class (ops/s), each finite and $> 0$; any order
     * @param u      the pool's utilisation $x / C$; values $\ge 1$ give $\bar\nu$, NaN or negative are rejected
     * @return ops/s; exactly $\nu$ when every class has the same speed $\nu$
     */
    public static double effectiveSpeed(int[] counts, double[] speeds, double u) {
        if (counts.length != speeds.length || counts.length == 0) {
            throw new IllegalArgumentException("counts (" + counts.length + ") and speeds (" + speeds.length
                    + ") must be equally many, at least one");
        }
        if (!(u >= 0)) {
            throw new IllegalArgumentException("utilisation u (" + u + ") must be >= 0");
        }
        Integer[] order = new Integer[speeds.length];
        for (int c = 0; c < order.length; c++) {
            if (counts[c] < 1 || !(speeds[c] > 0) || Double.isInfinite(speeds[c])) {
                throw new IllegalArgumentException("class " + c + ": count (" + counts[c] + ") must be >= 1 and speed ("
                        + speeds[c] + ") finite and > 0");
            }
            order[c] = c;
        }
        Arrays.sort(order, (a, b) -> Double.compare(speeds[b], speeds[a]));
        if (speeds[order[0]] == speeds[order[order.length - 1]]) {
            return speeds[order[0]];
        }
        double capacity = 0;
        long servers = 0;
        for (int c = 0; c < counts.length; c++) {
            capacity += counts[c] * speeds[c];
            servers += counts[c];
        }
        double meanSpeed = capacity / servers;
        if (!(u < 1)) {
            return meanSpeed;
        }
        double work = u * capacity;
        double filled = 0;
        double busy = 0;
        int pooled = 0;
        double previous = 1;
        double tau = 0;
        for (int i = 0; i < order.length; i++) {
            int c = order[i];
            double k = counts[c] * speeds[c];
            double taken = Math.min(k, Math.max(0, work - filled));
            filled += k;
            busy += taken / speeds[c];
            pooled += counts[c];
            double allBusy = PooledServers.erlangC(pooled, Math.min(busy, pooled));
            tau += Math.max(0, previous - allBusy) / speeds[c];
            previous = Math.min(previous, allBusy);
        }
        tau += previous / meanSpeed;
        return 1 / tau;
    }
}
