package dev.nona.queueing;

/**
 * The bottleneck link as an M/G/1 queue with deterministic per-transfer service times, Eqs. (IV)&ndash;(IX) of
 * Nona. Every transfer crossing the link (a cut DAG edge, or a background transfer) is a customer with service
 * time $S_e = b_e/\mu$; transfers arrive as Poisson streams of rate $\lambda_e$.
 *
 * <p>Based on: B. Pit-Claudel, D. Malak, A. Cohen, M. Médard, M. Ghobadi, "Nona: A Stochastic Congestion-Aware Job Scheduler for Real-Time Inference
 * Queries", CloudNet 2024, Section III-C.
 *
 * <p>Stateless and thread-safe. At $\rho \ge 1$ the queue is unstable: {@link #phi} returns
 * {@link Double#POSITIVE_INFINITY} (never a negative or NaN wait).
 */
public final class LinkModel {
    private LinkModel() {}

    /**
     * Implements Eq. (IV) of Nona for one edge: $\lambda_e = \beta_j \cdot P(e \text{ cut})$.
     *
     * @param beta        the job class's arrival rate $\beta_j$ (1/s)
     * @param probabilityCut probability that the placement cuts the edge
     */
    public static double lambda(double beta, double probabilityCut) {
        return beta * probabilityCut;
    }

    /** Implements Eq. (V) of Nona: $S_e = b_e/\mu$ with $b_e$ in bits and $\mu$ in bits/s. */
    public static double serviceTime(double bits, double mu) {
        return bits / mu;
    }

    /** Implements Eq. (VI) of Nona for one stream: its contribution $\lambda S$ to the link load $\rho$. */
    public static double load(double lambda, double s) {
        return lambda * s;
    }

    /**
     * Implements Eq. (VIII) of Nona (the Pollaczek&ndash;Khinchine formula): the mean wait in the link's queue,
     * $\phi = \frac{\sum \lambda_e S_e^2}{2(1-\rho)}$.
     *
     * @param sumLambdaS2 $\sum_e \lambda_e S_e^2$ over every stream on the link (background included), $\ge 0$
     * @param rho         the link load $\rho$ of Eq. (VI)
     * @return the wait in seconds; $+\infty$ when $\rho \ge 1$ (Eq. (VII) violated) or when an input is NaN
     */
    public static double phi(double sumLambdaS2, double rho) {
        if (!(rho < 1) || Double.isNaN(sumLambdaS2)) {
            return Double.POSITIVE_INFINITY;
        }
        return sumLambdaS2 / (2 * (1 - rho));
    }

    /** Implements Eq. (IX) of Nona: the mean delay of one transfer, $c_e = \phi + S_e$. */
    public static double c(double phi, double s) {
        return phi + s;
    }
}
