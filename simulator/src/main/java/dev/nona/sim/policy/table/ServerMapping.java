package dev.nona.sim.policy.table;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.engine.ClusterView;
import java.util.SplittableRandom;

/**
 * How a table-driven policy turns the parts of a sampled triplet into servers. The table ({@link SimTable})
 * says how a job is grouped into parts and which part holds the root and the sink; servers are symmetric in Nona's
 * formulation, so which server runs a part is this mapping's choice. Nona's paper maps uniformly at random
 * ({@link #UNIFORM}, state-oblivious); the product's controller maps from live telemetry.
 */
public interface ServerMapping {
    /** Nona's rule (Section III-E): uniformly random servers, distinct parts on distinct servers. Never reads the view. */
    ServerMapping UNIFORM = new ServerMapping() {
        @Override
        public int first(ClusterView view, SplittableRandom random) {
            return random.nextInt(view.servers());
        }

        @Override
        public int other(ClusterView view, SplittableRandom random, ServerPicker picker) {
            return picker.pick(random, view.servers());
        }

        @Override
        public String toString() {
            return "uniform";
        }
    };

    /**
     * Live queues: the first root joins the server with the least queued work; every other part goes to the less
     * loaded of two random unused servers (power of two choices). Not in the paper.
     */
    ServerMapping LIVE_QUEUES = new ServerMapping() {
        @Override
        public int first(ClusterView view, SplittableRandom random) {
            return view.leastLoadedServer(random);
        }

        @Override
        public int other(ClusterView view, SplittableRandom random, ServerPicker picker) {
            int n = view.servers();
            int a = picker.pick(random, n);
            int b = picker.pick(random, n);
            boolean bBetter = view.queuedWorkSeconds(b) < view.queuedWorkSeconds(a);
            picker.forgetLast(bBetter ? a : b);
            return bBetter ? b : a;
        }

        @Override
        public String toString() {
            return "live-queues";
        }
    };

    /** The server of the job's first root. */
    int first(ClusterView view, SplittableRandom random);

    /** A server for a further part, distinct from those {@code picker} holds while enough servers exist; records it. */
    int other(ClusterView view, SplittableRandom random, ServerPicker picker);

    /**
     * Called once every task of the job has a server ({@code servers[t]} for task {@code t}), so that a mapping
     * that predicts the work it sends to each server can record it. Default: nothing.
     */
    default void placed(SimJobClass jobClass, int[] servers, ClusterView view) {
    }
}
