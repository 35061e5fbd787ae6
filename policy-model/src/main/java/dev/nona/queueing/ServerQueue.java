package dev.nona.queueing;

/**
 * Queueing at the servers, an extension beyond the Nona paper (which charges each task only its compute time
 * $p^t/\nu$). The cluster's compute load is spread evenly over its $N$ servers (roots are placed uniformly, so
 * every server sees the same mix); each server is an M/G/1 queue whose customers are the tasks (contracted nodes)
 * and the background compute jobs, with deterministic service times $p/\nu$. The Pollaczek&ndash;Khinchine mean
 * wait is then
 * $$w = \frac{\frac{1}{N}\sum_k \lambda_k s_k^2}{2(1-u)}, \qquad u = \frac{1}{N}\sum_k \lambda_k s_k,$$
 * which reduces to the M/D/1 wait $\frac{u\,s}{2(1-u)}$ when all tasks have the same size $s$. Every task pays
 * $w$ before it runs. The load does not depend on the placement (every task runs somewhere), so $w$ is a
 * constant of the optimisation; it still changes which placement is best, since tasks in the same part queue
 * one after another while tasks in different parts wait in parallel.
 *
 * <p>Stateless and thread-safe. At $u \ge 1$ the servers are overloaded: {@link #waitingTime} returns
 * $+\infty$.
 */
public final class ServerQueue {
    private ServerQueue() {}

    /** The utilisation $u = \frac{1}{N}\sum_k \lambda_k s_k$ from the cluster-wide sum $\sum_k \lambda_k s_k$. */
    public static double utilisation(double sumLambdaS, int servers) {
        return sumLambdaS / servers;
    }

    /**
     * The mean wait of a task at a server (Pollaczek&ndash;Khinchine, M/G/1 per server).
     *
     * @param sumLambdaS  cluster-wide $\sum_k \lambda_k s_k$ (task arrivals per second times their compute seconds)
     * @param sumLambdaS2 cluster-wide $\sum_k \lambda_k s_k^2$
     * @param servers     $N \ge 1$
     * @return seconds; $+\infty$ when $u \ge 1$
     */
    public static double waitingTime(double sumLambdaS, double sumLambdaS2, int servers) {
        double u = utilisation(sumLambdaS, servers);
        if (!(u < 1)) {
            return Double.POSITIVE_INFINITY;
        }
        return (sumLambdaS2 / servers) / (2 * (1 - u));
    }
}
