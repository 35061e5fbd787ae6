package dev.nona.queueing;

/**
 * Queueing at the servers, an extension beyond the Nona paper (which charges each task only its compute time
 * $p^t/\nu$). The cluster's compute load is spread evenly over its $N$ servers (roots are placed uniformly, so
 * every server sees the same mix); each server is an M/G/1 queue whose customers are the tasks (contracted nodes)
 * and the background compute jobs, with deterministic service times $p/\nu$. The Pollaczek&ndash;Khinchine mean
 * wait is then
 * $$w = \frac{\frac{1}{N}\sum_k \lambda_k s_k^2}{2(1-u)}, \qquad u = \frac{1}{N}\sum_k \lambda_k s_k,$$
 * which reduces to the M/D/1 wait $\frac{u\,s}{2(1-u)}$ when all tasks have the same size $s$.
 *
 * <p><b>Entry and re-entry</b> ({@link #waits}, our extension, used by the optimiser). Charging $w$ to every task
 * over-predicts a chain of tasks on one server many times over: a job's next task on the same server queues only
 * behind the work that arrived while its previous task waited and ran, so the server interleaves the jobs it holds
 * roughly as processor sharing (PS). We therefore charge
 * <ul>
 *   <li>a <em>re-entry</em> wait $f\,s$ with $f = u/(1-u)$ (the PS stretch: under PS a job of size $x$ spends
 *       $x/(1-u)$, i.e. waits $x\,u/(1-u)$) to a task that follows its job's previous task on the same server;</li>
 *   <li>an <em>entry</em> wait $W$ to a task that joins a server's queue from outside. By PASTA it waits for the
 *       mean residual work in service $R = \frac{1}{N}\sum_k \lambda_k s_k^2/2$ plus the work queued ahead of it;
 *       by Little's law the queued entry tasks hold $u_{in} W$ of work and the queued re-entry tasks
 *       $\frac{1}{N}\sum_{k\,re} \lambda_k s_k \cdot f s_k$, so
 *       $$W = \frac{R + \frac{f}{N}\sum_{k\,re}\lambda_k s_k^2}{1 - u_{in}}, \qquad u_{in} = \frac{1}{N}\sum_{k\,in}
 *       \lambda_k s_k.$$
 *       With single-task jobs only (every task an entry) this is exactly the PK wait $w$.</li>
 * </ul>
 * The alternatives we compared against the simulator (FIFO single-task servers, zoo workload, 70% load, GPT-2 run
 * locally: 88 tasks, measured total wait 0.83&ndash;0.86 s): charging $w$ per task predicts 16 s; charging only the
 * work that arrives during the previous task ($u\,s$) about 0.3 s; the PS stretch about 0.84 s. The measured
 * single-task entry wait was 0.089&ndash;0.094 s against $w = 0.179$ s, which the $u_{in}$ form explains (chain
 * tasks mostly re-enter, so they queue ahead of an arriving task far less than FIFO customers would).
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
     * The entry wait $W$ and re-entry stretch $f$ of the class comment (our extension beyond Nona; PK/M/G/1 for the
     * residual work, PS stretch for re-entry). Which tasks are entries is fixed per solve (see the caller).
     *
     * @param sumLambdaS   cluster-wide $\sum_k \lambda_k s_k$ over all tasks (and background compute jobs)
     * @param sumLambdaS2  cluster-wide $\sum_k \lambda_k s_k^2$ over all tasks
     * @param entryLambdaS  the part of {@code sumLambdaS} from entry tasks
     * @param entryLambdaS2 the part of {@code sumLambdaS2} from entry tasks
     * @param servers      $N \ge 1$
     * @return both $+\infty$ when $u \ge 1$
     */
    public static ServerWaits waits(double sumLambdaS, double sumLambdaS2, double entryLambdaS, double entryLambdaS2, int servers) {
        if (servers < 1) {
            throw new IllegalArgumentException("servers (" + servers + ") must be >= 1");
        }
        if (!(entryLambdaS >= 0 && entryLambdaS <= sumLambdaS * (1 + 1e-12))) {
            throw new IllegalArgumentException("entry load (" + entryLambdaS + ") must be in [0, total load " + sumLambdaS + "]");
        }
        if (!(entryLambdaS2 >= 0 && entryLambdaS2 <= sumLambdaS2 * (1 + 1e-12))) {
            throw new IllegalArgumentException("entry second moment (" + entryLambdaS2 + ") must be in [0, " + sumLambdaS2 + "]");
        }
        double u = utilisation(sumLambdaS, servers);
        if (!(u < 1)) {
            return new ServerWaits(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
        }
        double f = u / (1 - u);
        double residual = sumLambdaS2 / servers / 2;
        double queuedReentry = f * Math.max(0, sumLambdaS2 - entryLambdaS2) / servers;
        double uIn = entryLambdaS / servers;
        return new ServerWaits((residual + queuedReentry) / (1 - uIn), f);
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

    /**
     * The least waiting that placement drawn independently of the queues can cause, in seconds of waiting per
     * second (our analysis, beyond the Nona paper). Let every job run whole on one server, drawn at random by any
     * fixed distribution (Nona's sampling with a table that never splits a job, whatever the server weights). Server
     * $i$ then sees a Poisson stream (a thinning of the arrivals) of rate $\lambda_i$ and load $\rho_i$; as an
     * M/G/1-FIFO queue with the job as the customer, its Pollaczek&ndash;Khinchine wait is
     * $W_i = \lambda_i E[S_i^2] / (2(1-\rho_i))$, and $E[S_i^2] \ge E[S_i]^2$ gives
     * $\lambda_i W_i \ge \rho_i^2 / (2(1-\rho_i))$. That is convex in $\rho_i$, so with
     * $\sum_i \rho_i = N u$ (Jensen)
     * $$\sum_i \lambda_i W_i \ \ge\ \frac{N u^2}{2(1-u)}.$$
     * Equality holds for one deterministic service time on evenly loaded servers (M/D/1). Divide by the job arrival
     * rate for the mean wait per job. A scheduler that reads the queues is not bound by it.
     *
     * @param u       the mean server utilisation $u = \frac{1}{N}\sum_j \lambda_j S_j$, in $[0, 1)$
     * @param servers $N \ge 1$
     * @return seconds of waiting per second, summed over the jobs; $+\infty$ when $u \ge 1$
     */
    public static double samplingWaitRateFloor(double u, int servers) {
        if (servers < 1) {
            throw new IllegalArgumentException("servers (" + servers + ") must be >= 1");
        }
        if (!(u >= 0)) {
            throw new IllegalArgumentException("utilisation u (" + u + ") must be >= 0");
        }
        if (!(u < 1)) {
            return Double.POSITIVE_INFINITY;
        }
        return servers * u * u / (2 * (1 - u));
    }
}
