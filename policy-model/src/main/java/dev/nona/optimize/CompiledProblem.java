package dev.nona.optimize;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.Triplet;
import dev.nona.queueing.FastestIdleFirst;
import dev.nona.queueing.LeastExpectedFinish;
import dev.nona.queueing.LinkModel;
import dev.nona.queueing.PooledServers;
import dev.nona.queueing.PooledWait;
import dev.nona.queueing.ServerQueue;
import dev.nona.queueing.ServerWaits;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * A {@link NonaProblem} flattened into arrays: every subgraph of every job class gets an index {@code s}, every
 * admissible triplet a global index {@code c} in {@code [first[s], first[s+1])}. Triplets needing more servers than
 * the cluster has are dropped. Evaluates the objective (I) for a $\theta$ given as one flat array.
 *
 * <p>Not thread-safe (the choice costs keep scratch arrays).
 */
final class CompiledProblem {
    final NonaProblem problem;
    final int subgraphs;
    final int[] first;
    final int[] jobOf;
    final double[] beta;
    final ChoiceCost[] cost;
    final List<List<Triplet>> admissible = new ArrayList<>();
    /** Per job: $p^{t_0}/\nu$ plus the source's entry wait plus every sink's $p/\nu$ (sinks' waits are in the delays). */
    final double[] fixedJct;
    final double rhoBackground;
    final double m2Background;
    final double backgroundRate;
    final double backgroundS;
    /** $\sum_j \beta_j$ fixedJct$_j$ plus the background compute jobs' term: the part of (I) that no $\theta$ changes. */
    final double objectiveConstant;
    final double backgroundComputeTerm;
    final double serverUtilisation;
    /** The entry wait $W$ (0 in the paper's formulation; $+\infty$ when the servers are overloaded). */
    final double serverWait;
    final ServerWaits serverWaits;
    /**
     * Under the controller's mapping ({@link CostModel#controllerMapping}): the pooled queue's wait, paid once by
     * every request (its mean, in {@link #fixedJct}) and again by every remote part (in the choices' fork&ndash;join
     * delays); null otherwise.
     */
    final PooledWait pooledWait;
    /**
     * Under the controller's mapping, per job: the probability that a remote part's server is taken by another request
     * before the part arrives ({@link PooledServers#reuseProbability}); null otherwise.
     */
    final double[] reused;
    private final double[] remoteSums;
    final int[] firstSubgraph;
    /** Per subgraph: the waits its choices are compiled with, and its remote parts' wait (null: none). */
    private final ServerWaits[] waitsOf;
    private final PooledWait[] remoteWaitOf;
    /**
     * For each subgraph, the first subgraph whose triplets cost exactly the same (itself if none): the linear
     * program treats such subgraphs as one, weighted by their summed rates, which has the same optimum.
     */
    final int[] representative;
    /** Which choices the cluster's memory admits ({@link PartFit}). */
    final PartFit fit;
    /**
     * Under per-class speeds ({@link CostModel#perClassSpeeds}, on a cluster whose classes differ in speed): per
     * memory level of {@link #fit}, the effective speed of its classes ({@link FastestIdleFirst}; used for the parts of a
     * model no class holds whole, see {@link #routeRequests}); null otherwise.
     */
    final double[] levelSpeed;
    /**
     * Under per-class speeds, per job: the wait and the effective speed of its requests where the least-expected-finish
     * rule sends them ({@link LeastExpectedFinish}), for a model that some class holds whole; NaN otherwise (then its
     * parts compute at {@link #levelSpeed} and it waits the pooled $W_N$). Null without per-class speeds.
     */
    private final double[] jobWait;
    private final double[] jobSpeed;
    /** The placement rule's idle gate $\kappa$ this problem's routing assumes ({@link #idleGate()}). */
    private final double idleGate;
    /** With {@code cluster.coldStart} set: the steady-state cold probability, or NaN when the problem gives a cache state. */
    private final double steadyCold;
    private final ColdStartCost coldStart;
    /**
     * Under the controller's mapping with {@code cluster.coldStart} and no cache state given: the cold probability of
     * a part sent beyond its request's own server ({@link SteadyStateCache#splitColdProbability}); 0 otherwise.
     */
    private final double splitCold;

    CompiledProblem(NonaProblem p) {
        this(p, () -> false);
    }

    /** Compiles {@code p}, polling {@code stop} before each subgraph ({@link SolveCancelledException} if true). */
    CompiledProblem(NonaProblem p, BooleanSupplier stop) {
        this.problem = p;
        this.fit = PartFit.of(p.cluster());
        double nu = p.cluster().opsPerSecond();
        double mu = p.cluster().linkBitsPerSecond();
        int servers = p.cluster().servers();
        List<Integer> firsts = new ArrayList<>();
        List<Integer> jobs = new ArrayList<>();
        List<SubgraphShape> shapes = new ArrayList<>();
        int choiceCount = 0;
        firstSubgraph = new int[p.jobs().size() + 1];
        double sumLambdaS = 0;
        double sumLambdaS2 = 0;
        double entryLambdaS = 0;
        double entryLambdaS2 = 0;
        double requestLambda = 0;
        double requestLambdaS = 0;
        double requestLambdaS2 = 0;
        double[] jobWork = new double[p.jobs().size()];
        for (int j = 0; j < p.jobs().size(); j++) {
            JobClass job = p.jobs().get(j);
            firstSubgraph[j] = firsts.size();
            List<ContractedNode> chain = new ArrayList<>();
            chain.add(job.nodes().get(job.source()));
            for (int k = 0; k < job.subgraphs().size(); k++) {
                SubgraphChoices sc = job.subgraphs().get(k);
                firsts.add(choiceCount);
                jobs.add(j);
                SubgraphShape shape = new SubgraphShape(sc.subgraph(), job, chain.size() == 1, nu, mu);
                List<Triplet> ok = new ArrayList<>();
                Function<Triplet, double[]> bytes = shape::partBytes; // PartFit.partBytes, summed once per parts
                for (Triplet t : sc.triplets()) {
                    if (fit.admissible(job, k, t, bytes)) { // the one rule, which a table's carry-over applies too
                        ok.add(t);
                    }
                }
                if (ok.isEmpty()) {
                    throw new IllegalArgumentException("job class '" + job.name() + "', subgraph " + sc.subgraph().root()
                            + ": every triplet needs more than " + servers + " servers"
                            + (fit.unbounded() ? "" : " or has a part no server's memory holds"));
                }
                admissible.add(ok);
                shapes.add(shape);
                choiceCount += ok.size();
                sc.subgraph().intermediates().forEach(id -> chain.add(job.nodes().get(id)));
                chain.add(job.nodes().get(sc.subgraph().sink()));
            }
            boolean firstReal = true;
            double requestS = 0;
            for (ContractedNode n : chain) {
                requestS += n.ops() / nu;
                if (!n.virtual()) {
                    double s = n.ops() / nu;
                    sumLambdaS += job.ratePerSecond() * s;
                    sumLambdaS2 += job.ratePerSecond() * s * s;
                    if (firstReal) { // the job's first task enters a server; with every part local the rest re-enter
                        entryLambdaS += job.ratePerSecond() * s;
                        entryLambdaS2 += job.ratePerSecond() * s * s;
                        firstReal = false;
                    }
                }
            }
            jobWork[j] = requestS;
            if (job.ratePerSecond() > 0) {
                requestLambda += job.ratePerSecond();
                requestLambdaS += job.ratePerSecond() * requestS;
                requestLambdaS2 += job.ratePerSecond() * requestS * requestS;
            }
        }
        firstSubgraph[p.jobs().size()] = firsts.size();
        subgraphs = firsts.size();
        first = new int[subgraphs + 1];
        jobOf = new int[subgraphs];
        beta = new double[subgraphs];
        for (int s = 0; s < subgraphs; s++) {
            first[s] = firsts.get(s);
            jobOf[s] = jobs.get(s);
            beta[s] = p.jobs().get(jobOf[s]).ratePerSecond();
        }
        first[subgraphs] = choiceCount;

        Background.Compute bc = p.background().compute();
        double bcS = bc.ops() / nu;
        sumLambdaS += bc.ratePerSecond() * bcS;
        sumLambdaS2 += bc.ratePerSecond() * bcS * bcS;
        entryLambdaS += bc.ratePerSecond() * bcS;
        entryLambdaS2 += bc.ratePerSecond() * bcS * bcS;
        serverUtilisation = ServerQueue.utilisation(sumLambdaS, servers);
        levelSpeed = p.costModel().perClassSpeeds() && speedsDiffer(p.cluster()) ? levelSpeeds(fit, serverUtilisation) : null;
        if (levelSpeed != null) {
            double[][] routed = routeRequests(p, jobWork, nu);
            jobWait = routed[0];
            jobSpeed = routed[1];
            idleGate = routed[2][0];
        } else {
            jobWait = null;
            jobSpeed = null;
            idleGate = 0;
        }
        coldStart = p.cluster().coldStart();
        steadyCold = coldStart == null || p.coldProbability() != null ? Double.NaN : SteadyStateCache.coldProbability(p);
        splitCold = coldStart == null || p.coldProbability() != null || !p.costModel().controllerMapping() ? 0
                : SteadyStateCache.splitColdProbability(p);
        if (p.costModel().controllerMapping()) {
            // the pooled queue's customers: whole requests (as the ledger records them) and background compute jobs
            pooledWait = PooledServers.waits(servers, requestLambdaS + bc.ratePerSecond() * bcS,
                    requestLambdaS2 + bc.ratePerSecond() * bcS * bcS, requestLambda + bc.ratePerSecond());
            // a remote part arrives, on average, after half its request's work (the root's work before it)
            reused = new double[p.jobs().size()];
            for (int j = 0; j < reused.length; j++) {
                reused[j] = PooledServers.reuseProbability(jobWork[j] / 2, servers, serverUtilisation, requestLambda);
            }
            remoteSums = new double[] {sumLambdaS, sumLambdaS2};
            serverWaits = ServerWaits.NONE;
            serverWait = pooledWait.finite() ? pooledWait.mean() : Double.POSITIVE_INFINITY;
        } else {
            pooledWait = null;
            reused = null;
            remoteSums = null;
            serverWaits = p.costModel().serverQueueing()
                    ? ServerQueue.waits(sumLambdaS, sumLambdaS2, entryLambdaS, entryLambdaS2, servers) : ServerWaits.NONE;
            serverWait = serverWaits.entry();
        }

        Background.Comm comm = p.background().comm();
        backgroundRate = comm.ratePerSecond();
        backgroundS = LinkModel.serviceTime(comm.bits(), mu);
        rhoBackground = LinkModel.load(backgroundRate, backgroundS);
        m2Background = backgroundRate * backgroundS * backgroundS;

        cost = new ChoiceCost[choiceCount];
        waitsOf = new ServerWaits[subgraphs];
        remoteWaitOf = new PooledWait[subgraphs];
        for (int sg = 0; sg < subgraphs; sg++) {
            if (reused != null) {
                double r = Double.isInfinite(serverWait) ? 0 : reused[jobOf[sg]];
                waitsOf[sg] = new ServerWaits(0, PooledServers.remoteStretch(r));
                remoteWaitOf[sg] = PooledServers.remotePartWait(r, remoteSums[0], remoteSums[1], servers);
            } else {
                waitsOf[sg] = serverWaits;
            }
        }
        Map<List<Object>, List<Integer>> compiled = new HashMap<>();
        for (int sg = 0; sg < subgraphs; sg++) {
            if (stop.getAsBoolean()) {
                throw new SolveCancelledException(0);
            }
            compileSubgraph(sg, shapes, compiled);
        }
        representative = new int[subgraphs];
        for (int s = 0; s < subgraphs; s++) {
            representative[s] = s;
            for (int r = 0; r < s; r++) {
                if (representative[r] == r && sameCosts(r, s)) {
                    representative[s] = r;
                    break;
                }
            }
        }
        fixedJct = new double[p.jobs().size()];
        double constant = 0;
        for (int j = 0; j < p.jobs().size(); j++) {
            JobClass job = p.jobs().get(j);
            ContractedNode source = job.nodes().get(job.source());
            double fixed = source.ops() / nu + (pooledWait != null ? serverWait : source.virtual() ? 0 : serverWait);
            for (SubgraphChoices sc : job.subgraphs()) {
                fixed += job.nodes().get(sc.subgraph().sink()).ops() / nu;
            }
            if (levelSpeed != null) {
                // per-class speeds: every sink and a first subgraph's source compute in the choices, at their parts' speeds
                double sourceOps = source.virtual() ? 0 : source.ops();
                boolean routed = Double.isFinite(jobSpeed[j]);
                double speed = routed ? jobSpeed[j] : job.subgraphs().isEmpty() ? speedOf(job.nodeBytes(job.source())) : 0;
                fixed = (routed && Double.isFinite(serverWait) ? jobWait[j] : serverWait)
                        + (job.subgraphs().isEmpty() ? sourceOps / speed : 0);
            }
            if (coldStart != null && job.subgraphs().isEmpty()) {
                fixed += expectedCold(job, job.nodes().get(job.source()).originalTasks(), job.nodeBytes(job.source()),
                        source.ops() / nu);
            }
            fixedJct[j] = fixed;
            constant += job.ratePerSecond() * fixed;
        }
        backgroundComputeTerm = p.costModel().backgroundInObjective() && bc.ratePerSecond() > 0
                ? bc.ratePerSecond() * (bcS + serverWait) : 0;
        objectiveConstant = constant + backgroundComputeTerm;
    }

    /**
     * Compiles a subgraph's triplets, sharing the compiled costs of the first earlier subgraph of the same shape, the
     * same waits and the same triplet structures. Candidates are looked up by {@link #compileKey} (equal inputs have
     * equal keys), so a catalog of many models costs $O(S)$ lookups rather than $O(S^2)$ comparisons.
     */
    private void compileSubgraph(int sg, List<SubgraphShape> shapes, Map<List<Object>, List<Integer>> compiled) {
        SubgraphShape shape = shapes.get(sg);
        List<Triplet> triplets = admissible.get(sg);
        List<Integer> candidates = compiled.computeIfAbsent(compileKey(sg, shape), k -> new ArrayList<>());
        for (int r : candidates) {
            if (sameCompileInputs(r, sg, shapes)) {
                System.arraycopy(cost, first[r], cost, first[sg], triplets.size());
                candidates.add(sg);
                return;
            }
        }
        candidates.add(sg);
        for (int i = 0; i < triplets.size(); i++) {
            Triplet t = triplets.get(i);
            double[] bytes = levelSpeed != null || coldStart != null ? shape.partBytes(t) : null;
            double[] speed = levelSpeed != null ? partSpeeds(sg, bytes) : null;
            double[] cold = coldStart != null ? partColds(sg, shape, t, bytes, speed) : null;
            cost[first[sg] + i] = ChoiceCost.compile(shape, t, waitsOf[sg], forkWaitOf(sg), speed, cold);
        }
    }

    /** Whether the cluster's classes differ in speed (else per-class speeds are the one speed, exactly). */
    private static boolean speedsDiffer(Cluster cluster) {
        return cluster.classes().stream().mapToDouble(ServerClass::opsPerSecond).distinct().count() > 1;
    }

    /** Per memory level: the effective speed of the classes that hold a part of that level, at utilisation {@code u}. */
    private static double[] levelSpeeds(PartFit fit, double u) {
        double[] out = new double[fit.levels()];
        for (int l = 0; l < out.length; l++) {
            List<ServerClass> classes = fit.classesAt(l);
            out[l] = FastestIdleFirst.effectiveSpeed(classes.stream().mapToInt(ServerClass::count).toArray(),
                    classes.stream().mapToDouble(ServerClass::opsPerSecond).toArray(), Math.min(u, 1));
        }
        return out;
    }

    /** The effective speed of a part of {@code bytes} (per-class speeds on); it must fit some class. */
    double speedOf(double bytes) {
        int level = fit.level(bytes);
        if (level < 0) {
            throw new IllegalArgumentException("BUG: a part of " + bytes + " bytes fits no server class");
        }
        return levelSpeed[level];
    }

    /**
     * Per part of a choice of subgraph {@code sg}: its job's routed speed ({@link #routeRequests}; a part is a piece of
     * the model, so it fits every class that holds the model whole), else its memory level's ({@link #speedOf}).
     */
    private double[] partSpeeds(int sg, double[] bytes) {
        double[] out = new double[bytes.length];
        double routed = jobSpeed[jobOf[sg]];
        for (int i = 0; i < out.length; i++) {
            out[i] = Double.isFinite(routed) ? routed : speedOf(bytes[i]);
        }
        return out;
    }

    /** Subgraph {@code sg}'s job's routed speed, or NaN (none, or no per-class speeds): part of what its costs depend on. */
    private double routedSpeedOf(int sg) {
        return jobSpeed == null ? Double.NaN : jobSpeed[jobOf[sg]];
    }

    /**
     * Per job: where the controller's least-expected-finish rule sends its requests, as {@link LeastExpectedFinish}
     * models it (docs/optimizer.md, "Per-class speed"): the request is one customer of $p_j = \bar\nu S_j$
     * operations (the ledger records it whole at its server) that the classes holding its $B_j$ bytes whole,
     * $F_j = \{c : M_c \ge B_j\}$, may take; the background compute jobs are customers too, on any class. At the fixed
     * point $c^*_j = \arg\min_{c \in F_j}(W_c + p_j/\nu_c)$, $W_c$ the M/G/$N_c$ wait of what it routes to $c$, model
     * $j$ waits $\bar W_j = \sum_c f_{jc} W_c$ (in its fixed time, instead of $W_N$) and its parts compute at
     * $\nu_j = 1/\sum_c (f_{jc}/\nu_c)$ (in $\chi_i$ of Eq. (X)). Returns {$\bar W_j$, $\nu_j$} per job, NaN for a job no
     * class holds whole (it must be split; its parts keep their levels' speeds and it waits $W_N$) or with no requests;
     * third, {$\kappa$}: the placement rule's idle gate, of 0 and {@link LeastExpectedFinish#GATES}, whose routing
     * predicts the least mean of the types' times (rates weighted; ties to the smaller gate). Types times classes
     * squared above {@link LeastExpectedFinish#GATED_SIZE} keep 0 (the gated rounds cost $O(k n^2)$ each).
     */
    private static double[][] routeRequests(NonaProblem p, double[] jobWork, double nu) {
        List<ServerClass> classes = p.cluster().classes();
        int n = classes.size();
        int[] counts = classes.stream().mapToInt(ServerClass::count).toArray();
        double[] speeds = classes.stream().mapToDouble(ServerClass::opsPerSecond).toArray();
        int jobs = p.jobs().size();
        int[] typeOf = new int[jobs];
        List<double[]> types = new ArrayList<>();
        List<boolean[]> feasible = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            JobClass job = p.jobs().get(j);
            double bytes = job.totalBytes(); // a walk over the model's tasks: once, not once per class
            boolean[] holds = new boolean[n];
            boolean any = false;
            for (int c = 0; c < n; c++) {
                holds[c] = classes.get(c).memoryBytes() >= bytes;
                any |= holds[c];
            }
            if (!any || !(job.ratePerSecond() > 0) || !(jobWork[j] > 0)) {
                typeOf[j] = -1;
                continue;
            }
            typeOf[j] = types.size();
            types.add(new double[] {job.ratePerSecond(), jobWork[j] * nu});
            feasible.add(holds);
        }
        Background.Compute bc = p.background().compute();
        if (bc.ratePerSecond() > 0 && bc.ops() > 0) {
            boolean[] all = new boolean[n];
            Arrays.fill(all, true);
            types.add(new double[] {bc.ratePerSecond(), bc.ops()});
            feasible.add(all);
        }
        double[][] out = new double[3][];
        out[0] = new double[jobs];
        out[1] = new double[jobs];
        out[2] = new double[] {0};
        Arrays.fill(out[0], Double.NaN);
        Arrays.fill(out[1], Double.NaN);
        if (types.isEmpty()) {
            return out;
        }
        double[] rates = types.stream().mapToDouble(t -> t[0]).toArray();
        double[] ops = types.stream().mapToDouble(t -> t[1]).toArray();
        boolean[][] holds = feasible.toArray(new boolean[0][]);
        LeastExpectedFinish.Routing r = LeastExpectedFinish.route(counts, speeds, rates, ops, holds);
        if ((long) rates.length * n * n <= LeastExpectedFinish.GATED_SIZE) {
            double least = LeastExpectedFinish.meanSeconds(r, rates, ops);
            for (double gate : LeastExpectedFinish.GATES) {
                LeastExpectedFinish.Routing g = LeastExpectedFinish.route(counts, speeds, rates, ops, holds, gate);
                double mean = LeastExpectedFinish.meanSeconds(g, rates, ops);
                if (mean < least) {
                    least = mean;
                    r = g;
                    out[2][0] = gate;
                }
            }
        }
        for (int j = 0; j < jobs; j++) {
            if (typeOf[j] >= 0) {
                out[0][j] = r.typeWait()[typeOf[j]];
                out[1][j] = r.typeSpeed()[typeOf[j]];
            }
        }
        return out;
    }

    /**
     * The idle gate $\kappa$ of the placement rule under which this problem's routing predicts the least mean JCT
     * ({@link LeastExpectedFinish#GATES}, or 0: the rule without it); 0 without per-class speeds.
     */
    double idleGate() {
        return idleGate;
    }

    /** Per part of {@code t}: its expected cold start $P_i T_{CS}(b_i)$ (docs/optimizer.md, "Cold starts"). */
    private double[] partColds(int sg, SubgraphShape shape, Triplet t, double[] bytes, double[] speed) {
        double[] out = new double[bytes.length];
        PartColdProbability given = problem.coldProbability();
        if (given == null && steadyCold == 0 && (splitCold == 0 || bytes.length < 2)) {
            return null;
        }
        JobClass job = problem.jobs().get(jobOf[sg]);
        double nu = problem.cluster().opsPerSecond();
        for (int i = 0; i < out.length; i++) {
            if (bytes[i] <= 0) {
                continue;
            }
            if (given == null) {
                // a part beyond the root's goes to a server the mapping cannot aim at: P = max(P_cold, P_split)
                double p = bytes.length > 1 && i != t.rootPart() ? Math.max(steadyCold, splitCold) : steadyCold;
                out[i] = p * coldStart.seconds(bytes[i]);
                continue;
            }
            List<String> tasks = new ArrayList<>();
            double ops = 0;
            if (i < t.parts().size()) {
                for (String id : t.parts().get(i)) {
                    tasks.addAll(job.nodes().get(id).originalTasks());
                    ops += job.nodes().get(id).ops();
                }
            }
            if (i == t.sinkPart()) {
                tasks.addAll(job.nodes().get(shape.subgraph.sink()).originalTasks());
                ops += shape.sinkOps;
            }
            if (i == t.rootPart() && shape.sourceOps + shape.sourceBytes > 0) {
                tasks.addAll(job.nodes().get(job.source()).originalTasks());
                ops += shape.sourceOps;
            }
            out[i] = expectedCold(job, tasks, bytes[i], ops / (speed != null ? speed[i] : nu));
        }
        return out;
    }

    /** $P\,T_{CS}(b)$ of one part: $P$ from the problem's cache state, else the steady-state estimate. */
    private double expectedCold(JobClass job, List<String> tasks, double bytes, double seconds) {
        if (bytes <= 0) {
            return 0;
        }
        PartColdProbability given = problem.coldProbability();
        double pCold = given == null ? steadyCold : given.probability(job, tasks, bytes, seconds);
        if (!(pCold >= 0 && pCold <= 1)) {
            throw new IllegalArgumentException("model '" + job.name() + "': cold probability (" + pCold + ") must be in [0, 1]");
        }
        return pCold * coldStart.seconds(bytes);
    }

    /** A hash key of what {@link #sameCompileInputs} compares (equal inputs, equal keys; -0.0 counted as 0.0). */
    private List<Object> compileKey(int sg, SubgraphShape shape) {
        return List.of(Arrays.hashCode(shape.compute), Arrays.hashCode(shape.real),
                Double.hashCode(shape.sinkCompute + 0.0), shape.sinkReal, Arrays.hashCode(shape.from),
                Arrays.hashCode(shape.to), Arrays.hashCode(shape.s), admissible.get(sg).size(),
                waitsOf[sg].hashCode(), Objects.hashCode(remoteWaitOf[sg]), Arrays.hashCode(shape.bytes),
                Double.hashCode(shape.sinkBytes + shape.sourceBytes + shape.sourceOps + 0.0), cacheOwner(sg),
                Double.hashCode(routedSpeedOf(sg) + 0.0));
    }

    /**
     * Whether subgraph {@code sg} compiles to the same costs as the earlier {@code r}: same numbers, same waits, and
     * each triplet of the same structure. Equal intermediates and equal triplet lists have the same structures
     * without computing them.
     */
    private boolean sameCompileInputs(int r, int sg, List<SubgraphShape> shapes) {
        SubgraphShape shape = shapes.get(sg);
        List<Triplet> triplets = admissible.get(sg);
        if (admissible.get(r).size() != triplets.size() || !shapes.get(r).sameNumbers(shape)
                || !waitsOf[r].equals(waitsOf[sg]) || !Objects.equals(remoteWaitOf[r], remoteWaitOf[sg])
                || cacheOwner(r) != cacheOwner(sg) || Double.compare(routedSpeedOf(r), routedSpeedOf(sg)) != 0) {
            return false;
        }
        if (shapes.get(r).subgraph.intermediates().equals(shape.subgraph.intermediates())
                && sameTriplets(admissible.get(r), triplets)) {
            return true;
        }
        List<List<String>> parts = null;
        int[] partOf = null;
        for (int i = 0; i < triplets.size(); i++) {
            Triplet t = triplets.get(i);
            if (t.parts() != parts) { // a partition's triplets come one after another, sharing one parts list
                parts = t.parts();
                partOf = shape.partOf(t);
            }
            if (!cost[first[r] + i].sameStructure(partOf, t)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code a.equals(b)}, comparing the parts of a partition once: consecutive triplets that share one parts list on
     * both sides (a partition's triplets, as {@code TripletEnumerator} gives them) differ only in $k$ and $l$.
     */
    private static boolean sameTriplets(List<Triplet> a, List<Triplet> b) {
        if (a.size() != b.size()) {
            return false;
        }
        List<List<String>> lastA = null;
        List<List<String>> lastB = null;
        for (int i = 0; i < a.size(); i++) {
            Triplet x = a.get(i);
            Triplet y = b.get(i);
            if (x.rootPart() != y.rootPart() || x.sinkPart() != y.sinkPart()) {
                return false;
            }
            if (x.parts() != lastA || y.parts() != lastB) {
                if (!x.parts().equals(y.parts())) {
                    return false;
                }
                lastA = x.parts();
                lastB = y.parts();
            }
        }
        return true;
    }

    /**
     * With a cache state given, the job of subgraph {@code sg} (its parts' cold probabilities are the job's own, so
     * only its own subgraphs share compiled costs); -1 otherwise (costs follow from the numbers alone).
     */
    private int cacheOwner(int sg) {
        return coldStart != null && problem.coldProbability() != null ? jobOf[sg] : -1;
    }

    /** The server waits subgraph {@code s}'s choices are compiled with. */
    ServerWaits waitsOf(int s) {
        return waitsOf[s];
    }

    /** The fork&ndash;join wait subgraph {@code s}'s choices are compiled with, or null (none). */
    PooledWait forkWaitOf(int s) {
        return remoteWaitOf[s] != null && remoteWaitOf[s].finite() ? remoteWaitOf[s] : null;
    }

    private boolean sameCosts(int r, int s) {
        if (first[r + 1] - first[r] != first[s + 1] - first[s]) {
            return false;
        }
        for (int i = 0; i < first[r + 1] - first[r]; i++) {
            if (!cost[first[r] + i].sameCost(cost[first[s] + i])) {
                return false;
            }
        }
        return true;
    }

    int choices() {
        return cost.length;
    }

    /** $\rho$ of Eq. (VI) for a flat $\theta$, background included. */
    double rho(double[] theta) {
        double rho = rhoBackground;
        for (int s = 0; s < subgraphs; s++) {
            for (int c = first[s]; c < first[s + 1]; c++) {
                rho += beta[s] * theta[c] * cost[c].cutSeconds;
            }
        }
        return rho;
    }

    /** $\sum \lambda_e S_e^2$, the numerator of Eq. (VIII), background included. */
    double m2(double[] theta) {
        double m2 = m2Background;
        for (int s = 0; s < subgraphs; s++) {
            for (int c = first[s]; c < first[s + 1]; c++) {
                m2 += beta[s] * theta[c] * cost[c].cutSquares;
            }
        }
        return m2;
    }

    /** The background's term of the objective at link wait {@code phi}. */
    double backgroundTerm(double phi) {
        return problem.costModel().backgroundInObjective() && backgroundRate > 0 ? backgroundRate * (phi + backgroundS) : 0;
    }

    /** Fills {@code out[c]} with the delay of every choice of a representative subgraph at {@code phi} (Eqs. (IX)&ndash;(XI)). */
    void delays(double phi, double[] out) {
        for (int s = 0; s < subgraphs; s++) {
            if (representative[s] == s) {
                for (int c = first[s]; c < first[s + 1]; c++) {
                    out[c] = cost[c].delay(phi);
                }
            }
        }
    }

    /** Evaluates Eqs. (I), (IV)&ndash;(XII) at a flat $\theta$. */
    Evaluation evaluate(double[] theta) {
        double rho = rho(theta);
        double phi = LinkModel.phi(m2(theta), rho);
        double[] jct = new double[problem.jobs().size()];
        if (Double.isInfinite(phi) || Double.isInfinite(serverWait)) {
            Arrays.fill(jct, Double.POSITIVE_INFINITY);
            return new Evaluation(Double.POSITIVE_INFINITY, rho, phi, jct);
        }
        for (int j = 0; j < jct.length; j++) {
            jct[j] = fixedJct[j];
        }
        for (int s = 0; s < subgraphs; s++) {
            double kappa = 0;
            for (int c = first[s]; c < first[s + 1]; c++) {
                if (theta[c] > 0) {
                    kappa += theta[c] * cost[c].delay(phi);
                }
            }
            jct[jobOf[s]] += kappa;
        }
        double objective = backgroundComputeTerm + backgroundTerm(phi);
        for (int j = 0; j < jct.length; j++) {
            objective += problem.jobs().get(j).ratePerSecond() * jct[j];
        }
        return new Evaluation(objective, rho, phi, jct);
    }

    /**
     * The objective and its parts at one $\theta$.
     *
     * @param objective $\sum_j \beta_j \tau_j$ (plus the background's term), $+\infty$ when unstable
     * @param rho       link load
     * @param phi       link wait, $+\infty$ when $\rho \ge 1$
     * @param jct       $\tau_j$ per job class, in problem order
     */
    record Evaluation(double objective, double rho, double phi, double[] jct) {}
}
