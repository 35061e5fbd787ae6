package dev.nona.sim.experiment;

import dev.nona.optimize.CostModel;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimConfig;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.engine.Simulator;
import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.PolicyContext;
import dev.nona.sim.policy.PolicyRegistry;
import dev.nona.sim.policy.expert.ExpertSearch;
import dev.nona.sim.policy.table.SimTable;
import dev.nona.sim.policy.table.WorkloadTableSolver;
import dev.nona.sim.workload.NonaSolver;
import dev.nona.sim.workload.SimWorkloads;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs policies on one workload: owns the table sources (Nona's optimiser, Nona*'s single table solved at a
 * reference load, Expert's search), caching each table per workload instance so that a load point is solved
 * once for all the runs that share it.
 */
public final class Scenario {
    /** Nona* is solved once at this compute load (the paper: 50%). */
    public static final double REFERENCE_LOAD = 0.5;

    private final SimWorkloads.Loaded loaded;
    private final double referenceLoad;
    private final NonaSolver nona;
    private final NonaSolver controller;
    private final ExpertSearch expert;
    private final ExpertSearch expertLive;
    private final Map<SimWorkload, SimTable> nonaCache = new IdentityHashMap<>();
    private final Map<SimWorkload, SimTable> controllerCache = new IdentityHashMap<>();
    private final Map<SimWorkload, SimTable> expertCache = new IdentityHashMap<>();
    private final Map<SimWorkload, SimTable> expertLiveCache = new IdentityHashMap<>();
    private SimTable nonaStarTable;

    public Scenario(SimWorkloads.Loaded loaded, CostModel costModel, ExpertSearch.Settings expertSettings, Consumer<String> progress) {
        this(loaded, costModel, expertSettings, progress, REFERENCE_LOAD);
    }

    /** With Nona*'s reference load given as the per-server compute load {@code referenceLoad}. */
    public Scenario(SimWorkloads.Loaded loaded, CostModel costModel, ExpertSearch.Settings expertSettings, Consumer<String> progress,
                    double referenceLoad) {
        this(loaded, costModel, defaultControllerModel(costModel), expertSettings, progress, referenceLoad);
    }

    /**
     * With the controller's policies ({@code nona-controller}, {@code nona-controller-p2}) solved in
     * {@code controllerCostModel}, the others in {@code costModel}.
     */
    public Scenario(SimWorkloads.Loaded loaded, CostModel costModel, CostModel controllerCostModel, ExpertSearch.Settings expertSettings,
                    Consumer<String> progress, double referenceLoad) {
        this.loaded = loaded;
        this.referenceLoad = referenceLoad;
        this.nona = NonaSolver.of(loaded, costModel);
        this.controller = NonaSolver.of(loaded, controllerCostModel);
        this.expert = new ExpertSearch(expertSettings, progress);
        this.expertLive = ExpertSearch.withLiveMapping(expertSettings, progress, this::controllerTable); // starts from the table it measures
    }

    public SimWorkloads.Loaded loaded() {
        return loaded;
    }

    public NonaSolver nonaSolver() {
        return nona;
    }

    /**
     * The controller's cost model when a run names only Nona's: the controller's own mapping
     * ({@link CostModel#CONTROLLER_MAPPING}), except the paper's formulation, which then holds for every table.
     */
    public static CostModel defaultControllerModel(CostModel costModel) {
        return costModel.serverQueueing() ? CostModel.CONTROLLER_MAPPING : costModel;
    }

    /** The controller's optimiser (its own cost model), which {@code nona-controller} and {@code nona-controller-p2} sample. */
    public NonaSolver controllerSolver() {
        return controller;
    }

    /** The controller's table for {@code w}'s stated rates (cached per instance). */
    public SimTable controllerTable(SimWorkload w) {
        return controllerCache.computeIfAbsent(w, controller::solve);
    }

    /** Nona's table for {@code w}'s stated rates (cached per instance). */
    public SimTable nonaTable(SimWorkload w) {
        return nonaCache.computeIfAbsent(w, nona::solve);
    }

    /** Expert's table for {@code w} (cached per instance). */
    public SimTable expertTable(SimWorkload w) {
        return expertCache.computeIfAbsent(w, expert::solve);
    }

    /** {@code expert-jsq}'s table for {@code w}: searched under the live mapping, from whole and Nona's table (cached per instance). */
    public SimTable expertLiveTable(SimWorkload w) {
        return expertLiveCache.computeIfAbsent(w, expertLive::solve);
    }

    /**
     * Nona*'s single table: solved once, for the workload file's cluster and mix at {@link #REFERENCE_LOAD}
     * (the paper: 50% load, 10 Gbit/s), then used for every load, bandwidth and rate error.
     */
    public SimTable nonaStarTable() {
        if (nonaStarTable == null) {
            nonaStarTable = nona.solve(loaded.sim().withLoad(referenceLoad));
        }
        return nonaStarTable;
    }

    /** Runs {@code policy} on {@code w}. Tables are solved for {@code solvedFor}'s rates (pass {@code w} itself unless testing rate errors). */
    public SimResult run(String policy, SimWorkload w, SimWorkload solvedFor, long jobs, long seed) {
        return run(policy, w, solvedFor, SimConfig.of(jobs, seed));
    }

    /** Runs {@code policy} on {@code w} with {@code config} (its seed seeds the policy too); tables as above. */
    public SimResult run(String policy, SimWorkload w, SimWorkload solvedFor, SimConfig config) {
        long seed = config.seed();
        WorkloadTableSolver nonaSource = x -> nonaTable(solvedFor);
        WorkloadTableSolver starSource = x -> nonaStarTable();
        WorkloadTableSolver expertSource = x -> expertTable(solvedFor);
        WorkloadTableSolver controllerSource = x -> controllerTable(solvedFor);
        WorkloadTableSolver expertLiveSource = x -> expertLiveTable(solvedFor);
        PolicyContext context = new PolicyContext(w, seed, nonaSource, starSource, expertSource, expertLiveSource,
                controllerSource);
        Policy p = PolicyRegistry.create(policy, context);
        return new Simulator(w, p, policy, config).run();
    }

    public SimResult run(String policy, SimWorkload w, long jobs, long seed) {
        return run(policy, w, w, jobs, seed);
    }
}
