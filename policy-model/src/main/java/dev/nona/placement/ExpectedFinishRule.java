package dev.nona.placement;

import dev.nona.queueing.MarginalCost;
import dev.nona.workload.ColdStartCost;
import java.util.Arrays;
import java.util.function.IntPredicate;
import java.util.random.RandomGenerator;

/**
 * {@link LiveServers.Rule#EXPECTED_FINISH}: per part, among the live servers it fits beside the request's other parts
 * there, the one of least marginal cost ({@link MarginalCost}): the part's predicted finish
 * $B_s(t) + T_{CS,s} + p/\nu_s$ (its predicted backlog, the part's load when the server does not hold the model, the
 * part's operations at the server's own rate) plus the delay it adds to the requests the server already holds, with
 * a model's load bought where its parts would cost least once what they lost without it reaches the load (rent or
 * buy, see {@link #pick}). The state it keeps of its own is the cold-start cost and, per warm pool, the model's rent
 * (checkpointed by the controller: {@link LiveServers#rents}) and bytes; the servers' backlogs, counts, rates and
 * warm pools are {@link LiveServers}'s ledger, their memory its {@link ServerMemory}.
 *
 * <p>Cost: $O(N)$ per part (a scan); far less while servers that can take the part soon are many. Once the scan holds a
 * pick that its request does not use yet, it passes over what cannot beat it: a block of 64 servers whose lower bound
 * on $B_s(t) + p/\nu_s$ ({@link BlockBounds#finishLowerBound}: per memory group of its up servers that can hold the
 * part, the least backlog at the greatest rate), or a server whose own $B_s(t) + p/\nu_s$, exceeds the pick's cost,
 * or equals it once the pick is a server this placer owns. That sum is at most a server's cost and its cost without
 * the load's price, so such a server can beat neither the pick nor the warmest server, and the pick is the same as a
 * full scan's (every run of both heterogeneous quality experiments was identical). On 10,000 servers of two classes
 * the controller's placement went from 17,654 to 114,039 requests per CPU second (docs/benchmarks.md, "The
 * memory-aware rule's scan"); with nine in ten servers busy and the idle ones too small for alexnet, bounds by memory
 * group took it from 16,552 to 91,260 (same page, "Blocks whose idle servers cannot take the part"). With one block,
 * only the servers' own bounds.
 *
 * <p>Not thread-safe: one per {@link LiveServers}.
 *
 * <p>Based on: the model-aware scheduling thesis's analytical model (a part's finish with and without a cold start);
 * Karlin, Manasse, McGeoch and Owicki, "Competitive randomized algorithms for nonuniform problems", Algorithmica
 * 1994 (rent or buy); Roughgarden and Tardos, "How bad is selfish routing?", J. ACM 2002 (a request's own best
 * against the marginal cost it imposes).
 */
final class ExpectedFinishRule {
    private final ServerLedger ledger;
    private final ServerMemory memory;
    /** What loading a part is predicted to cost, or null: not modelled (0 s). */
    private ColdStartCost coldStart;
    /** Per warm pool, its model's rent ({@link #rent}) as it stood at {@link #rentAt}. */
    private double[] rent = new double[0];
    /** Per warm pool, when its rent was last counted, seconds on the ledger's clock. */
    private double[] rentAt = new double[0];
    /** Per warm pool, its model's bytes, whole ({@link #modelBytes}; 0: not known). */
    private double[] poolBytes = new double[0];

    ExpectedFinishRule(ServerLedger ledger, ServerMemory memory) {
        this.ledger = ledger;
        this.memory = memory;
    }

    /** The idle gate $\kappa$ ({@link #idleGate(double)}; 0: none). */
    private double idleGate;

    /**
     * The idle gate $\kappa$ from now on (0: none, else finite and {@code >= 1}): when the part's server of least
     * marginal cost has work queued, the part goes instead to the fastest up server the filter allows that holds its
     * model, is predicted idle with no request ongoing, fits it and holds no other part of the request, if the part
     * computes there within $\kappa$ times that least cost. The optimiser picks $\kappa$ by its model of this rule
     * ({@code queueing.LeastExpectedFinish}) and the table carries it.
     */
    void idleGate(double kappa) {
        if (!(kappa == 0 || kappa >= 1 && Double.isFinite(kappa))) {
            throw new IllegalArgumentException("idle gate (" + kappa + ") must be 0 or finite and >= 1");
        }
        this.idleGate = kappa;
    }

    /** What loading a part is predicted to cost on a server that does not hold its model ({@code null}: 0 s). */
    void coldStart(ColdStartCost cost) {
        this.coldStart = cost;
    }

    /** The predicted seconds to load a part of {@code bytes} on a server that does not hold it (0 when not modelled). */
    double coldStartSeconds(double bytes) {
        return coldStart == null ? 0 : coldStart.seconds(bytes);
    }

    /**
     * A scan from a random server over the live servers {@code filter} allows where the part fits beside
     * {@code footprint} ({@code fitNow}: in their free memory now, or where {@code pinned} says a request of the part
     * still runs; else in their whole memory), preferring one not in
     * {@code taken[0..n)}, of least {@link MarginalCost marginal cost}; ties go to a server this placer owns,
     * then the first met. The scan also finds the server where the part would cost least if every server held the
     * model (its $C_s$ with $T_{CS} = 0$); when that one is
     * cold, the difference to the pick is what not loading the model there cost, and the model's
     * {@link #rent} adds it up. Once the rent reaches the load's price $w \cdot T_{CS}$ the part goes there instead
     * (it loads the model) and the rent starts again from 0: rent or buy, whose cost is at most twice that of the best
     * choice made knowing the requests to come. The rent decays with the cold-start cost's half-life $H$
     * ({@link ColdStartCost#rentHalfLifeSeconds}): what was lost $\Delta t$ ago counts $2^{-\Delta t/H}$ of itself, so a
     * load is bought for losses that recur (in steady state, at a rate of at least $w \cdot T_{CS} \ln 2 / H$ seconds
     * per second), not for a few small ones spread over a long run, each of which finds another cold server to load;
     * without it, on {@code examples/hetero.json} at load 0.1 (3 seeds, 50,000 jobs), 30 loads against 20 at
     * $H$ = 5 s, for a mean JCT 0.9% lower. A load is priced at its seconds times the cold-start cost's weight $w$
     * ({@link #coldStartPrice}; 1 unless the user gives one), here and in the marginal cost of a server that does not
     * hold the model; a weight above 1 loads models on fewer servers, for some mean JCT. It buys only where buying
     * costs just the load: a server predicted idle (a load behind a backlog would hold up the requests queued after
     * it) whose memory holds the model beside the models it has warm, as far as this placer knows their bytes
     * ({@link #evictsNothing}: a load that evicts a model takes its warmth elsewhere; on {@code memory-bound} at load
     * 0.9 buying regardless of both took the mean JCT from 0.380 s to 0.838 s, 5 seeds). Charging each request the
     * whole load, as the earliest finish alone does, warms a model on
     * too few fast servers while they start up and leaves it there: on {@code examples/hetero.json} at load 0.3
     * (seeds 3&ndash;5, 5,000 jobs) the two smallest models were warm on 0&ndash;2 of the 8 fast servers after the
     * warm-up, against 3&ndash;5 under {@code least-expected-finish} (whose read of a server's work leaves out a
     * running load, so it loads more), and the mean JCT was 1.07 times that baseline's (5 seeds) even with the
     * ledger's backlog exact; with rent or buy, 0.94.
     *
     * @param now the request's time on the ledger's clock, seconds
     * @return the server, or -1 when the part fits no such server
     */
    int pick(int warm, int[] taken, int n, double ops, double bytes, Footprint footprint, ServerFilter filter,
            double now, RandomGenerator rng, boolean fitNow, IntPredicate pinned) {
        int servers = ledger.servers();
        int start = servers > 1 ? rng.nextInt(servers) : 0;
        int best = -1;
        double bestT = Double.POSITIVE_INFINITY;
        boolean bestFree = false;
        boolean bestOwned = false;
        int warmest = -1;
        double warmestT = Double.POSITIVE_INFINITY;
        boolean warmestFree = false;
        double price = coldStartPrice(bytes); // the same on every server that does not hold the model
        boolean blocks = servers > BlockBounds.BLOCK; // with one block, the servers' own bounds suffice
        for (int i = 0; i < servers; i++) {
            int s = start + i < servers ? start + i : start + i - servers;
            if (bestFree && blocks && (s & (BlockBounds.BLOCK - 1)) == 0) { // a block's first: pass over it?
                double least = ledger.finishLowerBound(s >>> BlockBounds.BLOCK_SHIFT, ops, bytes, now);
                if (least > bestT || least == bestT && bestOwned) { // none of its servers can beat the pick
                    i += Math.min(servers, s + BlockBounds.BLOCK) - s - 1;
                    continue;
                }
            }
            if (!ledger.isUp(s)) {
                continue;
            }
            double work = computeSeconds(s, ops);
            double backlog = ledger.backlog(s, now);
            double finish = backlog + work; // at most its cost and its cost without the load's price
            if (bestFree && (finish > bestT || finish == bestT && bestOwned)) {
                continue; // it can beat neither the pick nor the warmest (whose cost is at most the pick's)
            }
            if ((filter != null && !filter.allows(s)) || !memory.fits(s, bytes, footprint, fitNow, pinned)) {
                continue;
            }
            boolean free = !contains(taken, n, s);
            int held = ledger.ongoing(s, now);
            double compute = MarginalCost.seconds(backlog, held, work);
            double t = MarginalCost.seconds(backlog, held, work + (held(s, warm) ? 0 : price));
            boolean owned = ledger.owns(s);
            if (best < 0 || (free && !bestFree) || (free == bestFree && (t < bestT || (t == bestT && owned && !bestOwned)))) {
                best = s;
                bestT = t;
                bestFree = free;
                bestOwned = owned;
            }
            if (warmest < 0 || (free && !warmestFree) || (free == warmestFree && compute < warmestT)) {
                warmest = s;
                warmestT = compute;
                warmestFree = free;
            }
        }
        if (idleGate > 0 && best >= 0 && ledger.backlog(best, now) > 0) {
            int idle = idle(warm, taken, n, ops, bytes, footprint, filter, now, fitNow, pinned, idleGate * bestT);
            if (idle >= 0) {
                return idle;
            }
        }
        if (best < 0 || warm < 0 || warmest == best || held(warmest, warm) || warmestFree != bestFree) {
            return best;
        }
        double paid = rent(warm, now) + (bestT - warmestT);
        if (paid >= price && ledger.backlog(warmest, now) == 0 && evictsNothing(warmest, bytes)) {
            rent[warm] = 0;
            return warmest;
        }
        rent[warm] = paid;
        return best;
    }

    /**
     * The fastest up server {@code filter} allows that holds the model of pool {@code warm}, is predicted idle with no
     * request ongoing, fits the part, is not in {@code taken[0..n)} and computes the part within {@code limit}
     * seconds; -1 if none ({@link #idleGate(double)}). Passes over a block whose bound on $B_s(t) + p/\nu_s$ exceeds
     * {@code limit}: none of its servers is idle with the part computed within it (as {@link #pick}, only when there
     * is more than one block).
     */
    private int idle(int warm, int[] taken, int n, double ops, double bytes, Footprint footprint, ServerFilter filter,
            double now, boolean fitNow, IntPredicate pinned, double limit) {
        int idle = -1;
        int servers = ledger.servers();
        boolean blocks = servers > BlockBounds.BLOCK; // with one block, its bound would read every server twice
        for (int s = 0; s < servers; s++) {
            if (blocks && (s & (BlockBounds.BLOCK - 1)) == 0
                    && ledger.finishLowerBound(s >>> BlockBounds.BLOCK_SHIFT, ops, bytes, now) > limit) {
                s += BlockBounds.BLOCK - 1; // none of its servers is idle with the part computed within the limit
                continue;
            }
            if (ledger.isUp(s) && (filter == null || filter.allows(s)) && held(s, warm) && ledger.backlog(s, now) == 0
                    && ledger.ongoing(s, now) == 0 && (idle < 0 || ledger.rate(s) > ledger.rate(idle))
                    && computeSeconds(s, ops) <= limit && !contains(taken, n, s)
                    && memory.fits(s, bytes, footprint, fitNow, pinned)) {
                idle = s;
            }
        }
        return idle;
    }

    /**
     * Whether loading {@code bytes} on server {@code s} fits its memory beside the models it holds warm, as far as
     * this placer knows their bytes ({@link #modelBytes}).
     */
    private boolean evictsNothing(int s, double bytes) {
        double held = bytes;
        int[] in = ledger.pools(s);
        for (int i = 0; in != null && i < in.length; i++) {
            held += in[i] < poolBytes.length ? poolBytes[in[i]] : 0;
        }
        return memory.fits(s, held);
    }

    /** The bytes of warm pool {@code pool}'s model, whole ({@code pool < 0}: nothing). */
    void modelBytes(int pool, double bytes) {
        if (pool < 0) {
            return;
        }
        if (pool >= poolBytes.length) {
            poolBytes = Arrays.copyOf(poolBytes, Math.max(pool + 1, 2 * poolBytes.length));
        }
        poolBytes[pool] = bytes;
    }

    /** Whether server {@code s} holds the model of pool {@code warm} ({@link ServerLedger#EVERY_SERVER}: every one). */
    private boolean held(int s, int warm) {
        return warm == ServerLedger.EVERY_SERVER || ledger.inPool(s, warm);
    }

    /**
     * The rent of warm pool {@code pool}'s model at {@code now} ({@link #pick}): seconds its parts have lost since its
     * latest load by going where it is warm instead of loading it where they would have finished first, each loss
     * decayed by the time since ({@link ColdStartCost#rentLeft}); counted as of {@code now}.
     */
    double rent(int pool, double now) {
        if (pool >= rent.length) {
            int n = Math.max(pool + 1, 2 * rent.length);
            rent = Arrays.copyOf(rent, n);
            rentAt = Arrays.copyOf(rentAt, n);
        }
        if (coldStart != null && rent[pool] > 0) {
            rent[pool] *= coldStart.rentLeft(now - rentAt[pool]);
        }
        rentAt[pool] = Math.max(rentAt[pool], now);
        return rent[pool];
    }

    /** Pool {@code pool}'s rent as last counted ({@link #rent}) and when, seconds; null when it has none. */
    double[] rentAsCounted(int pool) {
        return pool >= 0 && pool < rent.length && rent[pool] > 0 ? new double[] {rent[pool], rentAt[pool]} : null;
    }

    /**
     * Adds {@code r} seconds of rent counted at {@code at} to pool {@code pool}'s (a restore: {@link #rentAsCounted}
     * of this placer, or of several merged into it, whose losses add up), both decayed to the later of their times.
     */
    void restoreRent(int pool, double r, double at) {
        double now = pool < rentAt.length ? Math.max(at, rentAt[pool]) : at;
        double kept = rent(pool, now);
        rent[pool] = kept + (coldStart == null ? r : r * coldStart.rentLeft(now - at));
    }

    /**
     * The predicted finish of a part on server {@code s}, seconds after {@code now}: $B_s(t) + T_{CS} + p/\nu_s$, with
     * $T_{CS} = 0$ when the server holds the model ({@code warm}: its pool, {@link ServerLedger#EVERY_SERVER}: all).
     */
    double expectedFinishSeconds(int s, int warm, double ops, double bytes, double now) {
        return ledger.backlog(s, now) + computeSeconds(s, ops) + loadSeconds(s, warm, bytes);
    }

    /**
     * What the rule charges for loading a part of {@code bytes}: $w \cdot T_{CS}$, the load's seconds at the cold-start
     * cost's {@link ColdStartCost#weight weight} (0 when not modelled). The predictions ({@link #expectedFinishSeconds})
     * and the ledger's backlog keep the load's own seconds.
     */
    private double coldStartPrice(double bytes) {
        return coldStart == null ? 0 : coldStart.pricedSeconds(bytes);
    }

    /** $p/\nu_s$: the part's operations at server {@code s}'s rate (0 on a server of rate 0). */
    private double computeSeconds(int s, double ops) {
        double rate = ledger.rate(s);
        return rate > 0 ? ops / rate : 0;
    }

    /** $T_{CS}$ on server {@code s}: 0 when it holds the model of pool {@code warm}. */
    private double loadSeconds(int s, int warm, double bytes) {
        return held(s, warm) ? 0 : coldStartSeconds(bytes);
    }

    private static boolean contains(int[] taken, int n, int s) {
        for (int i = 0; i < n; i++) {
            if (taken[i] == s) {
                return true;
            }
        }
        return false;
    }
}
