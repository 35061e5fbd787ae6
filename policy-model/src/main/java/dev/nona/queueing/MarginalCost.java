package dev.nona.queueing;

/**
 * What placing a part on a server costs all requests together, the rule by which the controller picks a server
 * ({@code placement.ExpectedFinishRule}) and by which our model of it routes requests to speed classes
 * ({@link LeastExpectedFinish}): the part's own finish plus the delay it adds to the requests already there,
 * $$C = B + y + \min(n\,y,\ B)$$
 * (its own finish $B + y$, then the delay $\min(n y, B)$ to the $n$ requests there),
 * with $B$ the seconds of work the server holds, $n$ the requests it holds, and $y$ the part's seconds there (its
 * cold start, if any, and its operations at the server's rate). A server runs its ready tasks one at a time in the
 * order they arrive, so the requests it holds interleave task by task: a part of $y$ seconds holds each of them up
 * by up to $y$, by $\min(y, r_j)$ for one with $r_j$ seconds left; taking their work left as equal, $r_j = B/n$, the
 * sum is $\min(n y, B)$. Requests that arrive later are not counted: the next picks see the part in the backlog.
 *
 * <p>The own finish alone is each request's best, not the cluster's (selfish routing: Roughgarden and Tardos, "How
 * bad is selfish routing?", J. ACM 2002): it fills the fast servers until a slow one would finish the request as
 * soon, and every request queued on them pays (docs/optimizer.md, "Per-class speed", has the figures). Stateless.
 */
public final class MarginalCost {
    private MarginalCost() {}

    /**
     * $C = B + y + \min(n y, B)$.
     *
     * @param backlog $B$, seconds of work the server holds ($\ge 0$)
     * @param held    $n$, requests it holds ($\ge 0$; a mean where the caller models a class)
     * @param work    $y$, the part's seconds there ($\ge 0$; $+\infty$ where it may not run: then $C = +\infty$)
     */
    public static double seconds(double backlog, double held, double work) {
        double delay = held * work; // NaN for 0 requests and an infinite part: then the backlog bounds it
        return backlog + work + (delay < backlog ? delay : backlog);
    }
}
