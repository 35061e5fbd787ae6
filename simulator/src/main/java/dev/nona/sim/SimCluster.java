package dev.nona.sim;

import dev.nona.check.Checks;
import dev.nona.workload.Cluster;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.List;

/**
 * The simulated cluster: $N$ servers and one bottleneck link of $\mu$ bits/s shared by every transfer between
 * distinct servers (Nona, Section III-A). The paper's servers are identical, computing $\nu$ operations/s; a
 * heterogeneous cluster is a list of {@link ServerClass}es (servers numbered class by class), each with its own
 * speed $\nu_c$ and memory, and then $\nu$ is their count-weighted mean (what the compute load is measured in).
 *
 * @param servers           $N$, at least 1
 * @param opsPerSecond      $\nu$, finite and $> 0$ (with classes, their mean)
 * @param linkBitsPerSecond $\mu$, finite and $> 0$
 * @param classes           the server classes, never empty (the paper's cluster: one class with unbounded memory)
 * @param coldStart         what loading a model part costs, or null (then loads are instantaneous)
 */
public record SimCluster(int servers, double opsPerSecond, double linkBitsPerSecond, List<ServerClass> classes,
                         ColdStartCost coldStart) {
    public SimCluster {
        if (servers < 1) {
            throw new IllegalArgumentException("cluster servers (" + servers + ") must be >= 1");
        }
        Checks.positive(opsPerSecond, "cluster opsPerSecond");
        Checks.positive(linkBitsPerSecond, "cluster linkBitsPerSecond");
        classes = classes == null || classes.isEmpty()
                ? List.of(new ServerClass(ServerClass.DEFAULT_NAME, servers, opsPerSecond, ServerClass.UNBOUNDED))
                : List.copyOf(classes);
        long total = classes.stream().mapToLong(ServerClass::count).sum();
        if (total != servers) {
            throw new IllegalArgumentException("cluster servers (" + servers + ") must equal the classes' counts (" + total + ")");
        }
    }

    /** The paper's cluster: identical servers, memory not modelled. */
    public SimCluster(int servers, double opsPerSecond, double linkBitsPerSecond) {
        this(servers, opsPerSecond, linkBitsPerSecond, null, null);
    }

    /** The simulator's form of a workload file's cluster. */
    public static SimCluster of(Cluster c) {
        return new SimCluster(c.servers(), c.opsPerSecond(), c.linkBitsPerSecond(), c.classes(), c.coldStart());
    }

    /** The optimiser's form of this cluster. */
    public Cluster toCluster() {
        return new Cluster(servers, opsPerSecond, linkBitsPerSecond, classes, coldStart);
    }

    /** The class of server {@code s} (servers are numbered class by class, in order). */
    public int classOf(int s) {
        int first = 0;
        for (int c = 0; c < classes.size(); c++) {
            first += classes.get(c).count();
            if (s < first) {
                return c;
            }
        }
        throw new IndexOutOfBoundsException("server " + s + " of " + servers);
    }

    /** $\nu_{c(s)}$: the speed of server {@code s} (exactly {@link #opsPerSecond()} in a cluster of one class). */
    public double opsPerSecond(int s) {
        return classes.size() == 1 ? opsPerSecond : classes.get(classOf(s)).opsPerSecond();
    }

    /** The memory of server {@code s} for model parts ({@link ServerClass#UNBOUNDED} when not modelled). */
    public double memoryBytes(int s) {
        return classes.get(classOf(s)).memoryBytes();
    }

    /** Whether any server's memory is modelled. */
    public boolean memoryBounded() {
        return classes.stream().anyMatch(ServerClass::memoryBounded);
    }

    /**
     * Whether the simulator keeps model caches (parts loaded on first use, cold starts, eviction): when any memory
     * or a cold start is given. Off for the paper's cluster, whose runs are then event for event as before.
     */
    public boolean cachesOn() {
        return memoryBounded() || coldStart != null;
    }

    /** The same cluster with another number of servers (only a cluster of one class). */
    public SimCluster withServers(int n) {
        if (classes.size() > 1) {
            throw new IllegalStateException("a cluster of " + classes.size() + " server classes cannot be resized to " + n + " servers");
        }
        ServerClass c = classes.get(0);
        return new SimCluster(n, opsPerSecond, linkBitsPerSecond,
                List.of(new ServerClass(c.name(), n, c.opsPerSecond(), c.memoryBytes())), coldStart);
    }

    public SimCluster withLinkBitsPerSecond(double mu) {
        return new SimCluster(servers, opsPerSecond, mu, classes, coldStart);
    }
}
