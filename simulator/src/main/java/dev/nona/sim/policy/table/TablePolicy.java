package dev.nona.sim.policy.table;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.MemoryFilter;
import dev.nona.sim.policy.Policy;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Nona's online stochastic scheduler: the job's first root goes to a uniformly random server; then for each
 * subgraph in order, a triplet $(\pi, \pi_k, \pi_l)$ is drawn from $\theta_t$, part $k$ runs on the root's server,
 * every other part on a distinct random server, and the sink (the next root) on part $l$'s server. With the default
 * mapping it is state-oblivious: it never reads the cluster's queues.
 *
 * <p>Based on Nona (CloudNet'24), Section III-E. The table may come from Nona's optimiser, from a fixed rule
 * (Opportunistic) or from a search (Expert).
 *
 * <p>Which servers run the parts is a {@link ServerMapping}: Nona's uniform rule by default; a live mapping
 * ({@link ServerMapping#LIVE_QUEUES}; the controller's own mapping is {@code nona.ControllerPolicy}, as it maps parts from telemetry,
 * docs/design.md, "Placement") keeps the table's groupings but reads the queues, so the policy is then no longer
 * state-oblivious.
 *
 * <p>With memory modelled, a part whose mapped server cannot hold it moves whole to the least-loaded server that can
 * ({@link MemoryFilter}); the table's grouping stays.
 */
public final class TablePolicy implements Policy {
    private final SimTable table;
    private final SplittableRandom random;
    private final ServerPicker picker = new ServerPicker(4096);
    private final ServerMapping mapping;
    private final MemoryFilter memory = new MemoryFilter();
    private int[] partServer = new int[16];
    private ClusterView view;

    public TablePolicy(SimTable table, SplittableRandom random) {
        this(table, random, ServerMapping.UNIFORM);
    }

    public TablePolicy(SimTable table, SplittableRandom random, ServerMapping mapping) {
        this.table = table;
        this.random = random;
        this.mapping = Objects.requireNonNull(mapping, "server mapping");
    }

    @Override
    public void place(int classIndex, SimJobClass jobClass, ClusterView view, int[] servers) {
        this.view = view;
        int first = mapping.first(view, random);
        Arrays.fill(servers, 0, jobClass.tasks(), first);
        List<SimSubgraph> subgraphs = jobClass.subgraphs();
        List<SubgraphTable> subgraphTables = table.of(classIndex);
        for (int g = 0; g < subgraphs.size(); g++) {
            SimSubgraph sg = subgraphs.get(g);
            placeSubgraph(sg, subgraphTables.get(g).sample(random), servers);
        }
        memory.apply(view, classIndex, jobClass, servers);
        mapping.placed(jobClass, servers, view);
    }

    private void placeSubgraph(SimSubgraph sg, SimChoice choice, int[] servers) {
        int rootServer = servers[sg.root()];
        int parts = choice.partCount();
        if (parts == 0) {
            picker.reset(rootServer);
            servers[sg.sink()] = choice.sinkWithRoot() ? rootServer : pickOther();
            return;
        }
        if (partServer.length < parts) {
            partServer = new int[parts * 2];
        }
        picker.reset(rootServer);
        for (int p = 0; p < parts; p++) {
            int s = p == choice.rootPart() ? rootServer : pickOther();
            partServer[p] = s;
            for (int i = 0; i < choice.partSize(p); i++) {
                servers[choice.task(p, i)] = s;
            }
        }
        servers[sg.sink()] = partServer[choice.sinkPart()];
    }

    private int pickOther() {
        return mapping.other(view, random, picker);
    }
}
