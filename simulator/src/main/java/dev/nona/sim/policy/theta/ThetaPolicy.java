package dev.nona.sim.policy.theta;

import dev.nona.sim.JobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.Policy;
import java.util.Arrays;
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
 *
 * <p>With {@code liveMapping}, the triplets are still drawn from the table but servers are chosen from live
 * state, as the controller's server mapping does (DESIGN.md, Section 6): the first root joins the server with the
 * least queued work, every other part the less loaded of two random unused servers.
 */
public final class ThetaPolicy implements Policy {
    private final ThetaTable table;
    private final SplittableRandom random;
    private final ServerPicker picker = new ServerPicker(4096);
    private final boolean liveMapping;
    private int[] partServer = new int[16];
    private ClusterView view;

    public ThetaPolicy(ThetaTable table, SplittableRandom random) {
        this(table, random, false);
    }

    public ThetaPolicy(ThetaTable table, SplittableRandom random, boolean liveMapping) {
        this.table = table;
        this.random = random;
        this.liveMapping = liveMapping;
    }

    @Override
    public void place(int classIndex, JobClass jobClass, ClusterView view, int[] servers) {
        int n = view.servers();
        this.view = view;
        int first = liveMapping ? view.leastLoadedServer(random) : random.nextInt(n);
        Arrays.fill(servers, 0, jobClass.tasks(), first);
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
            picker.reset(rootServer);
            servers[sg.sink()] = triplet.sinkWithRoot() ? rootServer : pickOther(n);
            return;
        }
        if (partServer.length < parts) {
            partServer = new int[parts * 2];
        }
        picker.reset(rootServer);
        for (int p = 0; p < parts; p++) {
            int s = p == triplet.rootPart() ? rootServer : pickOther(n);
            partServer[p] = s;
            for (int i = 0; i < triplet.partSize(p); i++) {
                servers[triplet.task(p, i)] = s;
            }
        }
        servers[sg.sink()] = partServer[triplet.sinkPart()];
    }

    private int pickOther(int n) {
        if (!liveMapping) {
            return picker.pick(random, n);
        }
        int a = picker.pick(random, n);
        int b = picker.pick(random, n);
        boolean bBetter = view.queuedWorkSeconds(b) < view.queuedWorkSeconds(a);
        picker.forgetLast(bBetter ? a : b);
        return bBetter ? b : a;
    }
}
