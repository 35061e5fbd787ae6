package dev.nona.sim.modelaware;

import dev.nona.modelaware.ClusterView;
import dev.nona.modelaware.Decision;
import dev.nona.modelaware.InferenceRequest;
import dev.nona.modelaware.LatencyEstimator;
import dev.nona.modelaware.ModelAwarePolicies;
import dev.nona.modelaware.ModelAwarePolicy;
import dev.nona.modelaware.ModelRegistry;
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
 * {@link dev.nona.modelaware.ModelAwarePolicy}; requests it asks to wait are re-decided, in arrival order,
 * whenever a process exits. The model registry and the live latency estimates are updated as the thesis's
 * {@code MASched} would: a model is registered on a server when a request is routed there, a request counts as
 * ongoing until its process exits.
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Sections 4–6. It does not model σOS's own overheads (spawning procs, RPCs), which add a
 * few seconds to each of the thesis's measured workloads. Not thread-safe; one run per instance.
 */
public final class ModelAwareSimulator implements ClusterView {
    private final ThesisWorkload workload;
    private final ModelAwarePolicy policy;
    private final long seed;
    private final boolean learn;
    private final ModelRegistry registry;
    private final LatencyEstimator estimator;
    private final Map<String, SimServer> servers = new LinkedHashMap<>();
    private final EventLoop loop = new EventLoop();
    private final LinkedList<SimRequest> waiting = new LinkedList<>();
    private final double[] latencies;
    private final Map<String, Long> routes = new LinkedHashMap<>();
    private final Map<String, Long> strategies = new LinkedHashMap<>();
    private int nextGroup;
    private int nextId;
    private int groupOutstanding;
    private int groupToArrive;
    private int completed;
    private long coldStarts;
    private long evictions;
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
        for (int i = 0; i < c.servers(); i++) {
            String id = ThesisCluster.serverId(i);
            servers.put(id, new SimServer(id, c.coresPerServer()));
            registry.addServer(id, c.memoryMbPerServer());
        }
        workload.models().forEach(m -> estimator.register(m.catalogProfile()));
        this.policy = ModelAwarePolicies.create(policyName, new SplittableRandom(seed), estimator);
        this.latencies = new double[workload.totalRequests()];
    }

    /** Runs the whole request script and reports. */
    public ModelAwareResult run() {
        if (ran) {
            throw new IllegalStateException("a simulator runs once");
        }
        ran = true;
        loop.after(0, this::startNextGroup);
        loop.run();
        if (completed != latencies.length) {
            throw new IllegalStateException("BUG: " + (latencies.length - completed) + " requests never completed");
        }
        List<Double> l = new ArrayList<>();
        for (double x : latencies) {
            l.add(x);
        }
        return new ModelAwareResult(policy.name(), seed, completed, loop.now(), coldStarts, evictions, l, routes,
                strategies, loop.processed());
    }

    @Override
    public ModelRegistry registry() {
        return registry;
    }

    @Override
    public boolean hasRoom(String server, int cores) {
        return servers.get(server).hasRoom(cores);
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
        SimRequest r = new SimRequest(new InferenceRequest("r" + index, g.model(), g.cores()),
                workload.model(g.model()), nextGroup - 1, index);
        r.arrival = loop.now();
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
        servers.get(p.cpuServer()).reserve(r.request.cores());
        evictions += registry.assign(p.inferenceServer(), r.model.profile()).size();
        registry.beginRequest(p.inferenceServer());
        routes.merge(p.route().name(), 1L, Long::sum);
        strategies.merge(p.strategy(), 1L, Long::sum);
        loop.after(r.model.preSeconds(), () -> callReplica(r));
    }

    private void callReplica(SimRequest r) {
        if (r.placement.route() == Decision.Route.REMOTE) {
            double tN = workload.cluster().networkLatencySeconds();
            loop.after(tN, () -> {
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
        SimServer s = servers.get(r.placement.inferenceServer());
        s.enqueue(r);
        serveNext(s);
    }

    private void serveNext(SimServer s) {
        SimRequest r = s.nextForReplica();
        if (r == null) {
            return;
        }
        SimModel m = r.model;
        if (registry.isLoaded(s.id, m.name())) {
            infer(s, r);
            return;
        }
        coldStarts++;
        loop.after(m.coldStartSeconds(), () -> {
            evictions += registry.markLoaded(s.id, m.profile()).size();
            if (learn) {
                estimator.observeColdStart(m.name(), m.coldStartSeconds());
            }
            infer(s, r);
        });
    }

    private void infer(SimServer s, SimRequest r) {
        loop.after(r.model.inferenceSeconds(), () -> {
            if (learn) {
                estimator.observeInference(r.model.name(), r.model.inferenceSeconds());
            }
            s.replicaDone();
            serveNext(s);
            loop.after(r.model.postSeconds(), () -> finish(r));
        });
    }

    private void finish(SimRequest r) {
        servers.get(r.placement.cpuServer()).release(r.request.cores());
        registry.endRequest(r.placement.inferenceServer());
        if (learn) {
            estimator.observeCpu(r.model.name(), r.model.preSeconds() + r.model.postSeconds());
        }
        latencies[r.index] = loop.now() - r.arrival;
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
