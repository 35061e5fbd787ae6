package dev.nona.sim.policy.theta;

import dev.nona.sim.JobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.Policy;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Nona's online stochastic scheduler: the job's first root goes to a uniformly random server; then for each
 * subgraph in order, a triplet $(\pi, \pi_k, \pi_l)$ is drawn from $\theta_t$, part $k$ runs on the root's server,
 * every other part on a distinct random server, and the sink (the next root) on part $l$'s server. State-oblivious:
 * it never reads the cluster's queues.
 *
 * <p>Based on Nona (CloudNet'24), Section III-E. The table may come from Nona's optimiser, from a fixed rule
 * (Opportunistic) or from a search (Expert).
 */
public final class ThetaPolicy implements Policy {
    private final ThetaTable table;
    private final SplittableRandom random;
    private final ServerPicker picker = new ServerPicker(4096);
    private int[] partServer = new int[16];

    public ThetaPolicy(ThetaTable table, SplittableRandom random) {
        this.table = table;
        this.random = random;
    }

    @Override
    public void place(int classIndex, JobClass jobClass, ClusterView view, int[] servers) {
        int n = view.servers();
        int first = random.nextInt(n);
        for (int t = 0; t < jobClass.tasks(); t++) {
            servers[t] = first;
        }
        List<SimSubgraph> subgraphs = jobClass.subgraphs();
        List<SubgraphTheta> thetas = table.of(classIndex);
        for (int g = 0; g < subgraphs.size(); g++) {
            SimSubgraph sg = subgraphs.get(g);
            placeSubgraph(sg, thetas.get(g).sample(random), servers, n);
        }
    }

    private void placeSubgraph(SimSubgraph sg, SimTriplet triplet, int[] servers, int n) {
        int rootServer = servers[sg.root()];
        int parts = triplet.partCount();
        if (parts == 0) {
            servers[sg.sink()] = triplet.sinkWithRoot() ? rootServer : pickOther(rootServer, n);
            return;
        }
        if (partServer.length < parts) {
            partServer = new int[parts * 2];
        }
        picker.reset(rootServer);
        for (int p = 0; p < parts; p++) {
            int s = p == triplet.rootPart() ? rootServer : picker.pick(random, n);
            partServer[p] = s;
            for (int i = 0; i < triplet.partSize(p); i++) {
                servers[triplet.task(p, i)] = s;
            }
        }
        servers[sg.sink()] = partServer[triplet.sinkPart()];
    }

    private int pickOther(int rootServer, int n) {
        picker.reset(rootServer);
        return picker.pick(random, n);
    }
}
