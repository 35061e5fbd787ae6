package dev.nona.sim.modelaware;

import dev.nona.modelaware.ModelProfile;
import dev.nona.modelaware.ModelRegistry;
import dev.nona.sim.engine.Engine;
import dev.nona.sim.engine.ModelCaches;
import dev.nona.sim.modelaware.policy.Decision;
import dev.nona.sim.modelaware.policy.LatencyEstimator;
import dev.nona.sim.modelaware.policy.ModelAwarePolicies;
import dev.nona.sim.modelaware.policy.ModelAwarePolicy;
import dev.nona.sim.modelaware.policy.ModelAwareRequest;
import dev.nona.sim.modelaware.policy.ModelAwareView;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Discrete-event simulation of the thesis's testbed: machines with cores, a model cache and one model replica
 * each; requests whose process reserves cores on one machine, runs CPU pre-processing there, calls a replica
 * (its own, or a remote one after the network latency), and runs CPU post-processing before it exits and frees
 * its cores. A replica serves one call at a time, FIFO; a call for a model the replica has not loaded first
 * loads it ($T_{CS}$, occupying the replica), then infers ($T_I$). Placement is a
 * {@link dev.nona.sim.modelaware.policy.ModelAwarePolicy}; requests it asks to wait are re-decided, in arrival order,
 * whenever a process exits. The model registry and the live latency estimates are updated as the thesis's
 * {@code MASched} would: a model is registered on a server when a request is routed there, a request counts as
 * ongoing until its process exits.
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Sections 4–6. It does not model σOS's own overheads (spawning procs, RPCs), which add a
 * few seconds to each of the thesis's measured workloads. Not thread-safe; one run per instance.
 *
 * <p>It runs on the simulator's one {@link Engine}, as a {@link Engine.Driver}: the machines' replicas are the
 * engine's FIFO servers, their caches and cold starts the engine's {@link ModelCaches} (whose registry the
 * policies read), their cores the engine's core pools, and CPU stages and network calls its timed actions.
 */
public final class ModelAwareSimulator implements ModelAwareView, Engine.Driver {
    private final ThesisWorkload workload;
    private final ModelAwarePolicy policy;
    private final long seed;
    private final boolean learn;
    private final ModelRegistry registry;
    private final LatencyEstimator estimator;
    private final ModelCaches caches;
    private final Engine engine;
    private final SimModel[] models;
    private final LinkedList<SimRequest> waiting = new LinkedList<>();
    private final SimRequest[] requests;
    private final double[] latencies;
    private final Map<String, Long> routes = new LinkedHashMap<>();
    private final Map<String, Long> strategies = new LinkedHashMap<>();
    private int nextGroup;
    private int nextId;
    private int groupOutstanding;
    private int groupToArrive;
    private int completed;
    private boolean ran;

    public ModelAwareSimulator(ThesisWorkload workload, String policyName, long seed) {
        this(workload, policyName, seed, true);
    }

    /**
     * @param learn whether observed times update the live estimates; {@code false} freezes them at the catalog's
     *              figures (to measure what learning is worth)
     */
    public ModelAwareSimulator(ThesisWorkload workload, String policyName, long seed, boolean learn) {
        this.workload = workload;
        this.learn = learn;
        this.seed = seed;
        ThesisCluster c = workload.cluster();
        this.registry = new ModelRegistry(c.targetOngoingRequests());
        this.estimator = new LatencyEstimator(c.networkLatencySeconds());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < c.servers(); i++) {
            ids.add(ThesisCluster.serverId(i));
        }
        this.models = workload.models().toArray(new SimModel[0]);
        List<ModelProfile> profiles = new ArrayList<>();
        for (SimModel m : models) {
            profiles.add(m.profile());
        }
        this.caches = new ModelCaches(registry, ids, c.memoryMbPerServer(), profiles);
        this.engine = new Engine(c.servers(), this, new Engine.Options(caches, c.coresPerServer()));
        workload.models().forEach(m -> estimator.register(m.catalogProfile()));
        this.policy = ModelAwarePolicies.create(policyName, new SplittableRandom(seed), estimator);
        this.latencies = new double[workload.totalRequests()];
        this.requests = new SimRequest[workload.totalRequests()];
    }

    /** Runs the whole request script and reports. */
    public ModelAwareResult run() {
        if (ran) {
            throw new IllegalStateException("a simulator runs once");
        }
        ran = true;
        engine.after(0, this::startNextGroup);
        engine.run(() -> false, Long.MAX_VALUE);
        if (completed != latencies.length) {
            throw new IllegalStateException("BUG: " + (latencies.length - completed) + " requests never completed");
        }
        List<Double> l = new ArrayList<>();
        for (double x : latencies) {
            l.add(x);
        }
        return new ModelAwareResult(policy.name(), seed, completed, engine.now(), engine.coldStarts(),
                caches.evictions(), l, routes, strategies, engine.events());
    }

    @Override
    public ModelRegistry registry() {
        return registry;
    }

    @Override
    public boolean hasRoom(String server, int cores) {
        return engine.hasRoom(caches.serverIndex(server), cores);
    }

    private void startNextGroup() {
        if (nextGroup == workload.requests().size()) {
            return;
        }
        RequestGroup g = workload.requests().get(nextGroup++);
        groupOutstanding = g.count();
        groupToArrive = g.count();
        int now = g.arrival() == RequestGroup.Arrival.CONCURRENT ? g.count() : 1;
        for (int i = 0; i < now; i++) {
            arrive(g);
        }
        dispatch();
    }

    private void arrive(RequestGroup g) {
        groupToArrive--;
        int index = nextId++;
        SimRequest r = new SimRequest(new ModelAwareRequest("r" + index, g.model(), g.cores()),
                workload.model(g.model()), caches.modelIndex(g.model()), nextGroup - 1, index);
        r.arrival = engine.now();
        requests[index] = r;
        waiting.add(r);
    }

    private void dispatch() {
        for (Iterator<SimRequest> it = waiting.iterator(); it.hasNext(); ) {
            SimRequest r = it.next();
            if (policy.decide(r.request, this) instanceof Decision.Place p) {
                it.remove();
                start(r, p);
            }
        }
    }

    private void start(SimRequest r, Decision.Place p) {
        r.placement = p;
        r.cpuServer = caches.serverIndex(p.cpuServer());
        r.inferenceServer = caches.serverIndex(p.inferenceServer());
        engine.reserveCores(r.cpuServer, r.request.cores());
        caches.place(r.inferenceServer, r.modelIndex);
        registry.beginRequest(p.inferenceServer());
        routes.merge(p.route().name(), 1L, Long::sum);
        strategies.merge(p.strategy(), 1L, Long::sum);
        engine.after(r.model.preSeconds(), () -> callReplica(r));
    }

    private void callReplica(SimRequest r) {
        if (r.placement.route() == Decision.Route.REMOTE) {
            double tN = workload.cluster().networkLatencySeconds();
            engine.after(tN, () -> {
                if (learn) {
                    estimator.observeNetwork(tN);
                }
                enqueue(r);
            });
        } else {
            enqueue(r);
        }
    }

    private void enqueue(SimRequest r) {
        engine.submitTask(r.inferenceServer, r.index, r.model.inferenceSeconds());
    }

    @Override
    public void arrival(int stream) {
        throw new IllegalStateException("BUG: the thesis's request script schedules no Poisson arrivals");
    }

    @Override
    public double taskSeconds(int server, long item) {
        return requests[(int) item].model.inferenceSeconds();
    }

    @Override
    public int taskModel(long item) {
        return requests[(int) item].modelIndex;
    }

    @Override
    public void modelLoaded(int server, int model, double seconds) {
        if (learn) {
            estimator.observeColdStart(models[model].name(), seconds);
        }
    }

    @Override
    public void taskDone(int server, long item) {
        SimRequest r = requests[(int) item];
        if (learn) {
            estimator.observeInference(r.model.name(), r.model.inferenceSeconds());
        }
        engine.after(r.model.postSeconds(), () -> finish(r));
    }

    private void finish(SimRequest r) {
        engine.releaseCores(r.cpuServer, r.request.cores());
        registry.endRequest(r.placement.inferenceServer());
        if (learn) {
            estimator.observeCpu(r.model.name(), r.model.preSeconds() + r.model.postSeconds());
        }
        latencies[r.index] = engine.now() - r.arrival;
        completed++;
        groupOutstanding--;
        RequestGroup g = workload.requests().get(r.group);
        if (groupToArrive > 0 && g.arrival() == RequestGroup.Arrival.SEQUENTIAL) {
            arrive(g);
        }
        if (groupOutstanding == 0) {
            startNextGroup();
        }
        dispatch();
    }
}
