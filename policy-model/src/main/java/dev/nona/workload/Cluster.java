package dev.nona.workload;

import dev.nona.check.Checks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The cluster a workload runs on: $N$ servers joined by one bottleneck link of capacity $\mu$ bits/s (Nona, Section
 * III-B). The paper's cluster is $N$ identical servers computing $\nu$ operations/s each; a heterogeneous one is a
 * list of {@link ServerClass}es, each with its own $\nu_c$ and memory, and then $N = \sum_c N_c$ and
 * {@link #opsPerSecond()} is the count-weighted mean speed $\bar\nu = \sum_c N_c \nu_c / N$ (what a model with one
 * speed, the uniform controller, uses).
 *
 * @param servers           number of servers $N$, at least 1; with classes, the sum of their counts
 * @param opsPerSecond      compute rate $\nu$ of each server, finite and $> 0$; with classes, their mean $\bar\nu$
 * @param linkBitsPerSecond capacity $\mu$ of the bottleneck link, finite and $> 0$
 * @param classes           the server classes, in order (servers are numbered class by class); never empty: a
 *                          cluster given as {@code servers} + {@code opsPerSecond} has one class
 *                          {@value ServerClass#DEFAULT_NAME} with unbounded memory
 * @param coldStart         what loading a part costs, or null when cold starts are not modelled
 */
public record Cluster(int servers, double opsPerSecond, double linkBitsPerSecond, List<ServerClass> classes,
                      ColdStartCost coldStart) {
    public Cluster {
        if (servers < 1) {
            throw new WorkloadException("cluster.servers (" + servers + ") must be >= 1");
        }
        Checks.positive(opsPerSecond, "cluster.opsPerSecond", WorkloadException::new);
        Checks.positive(linkBitsPerSecond, "cluster.linkBitsPerSecond", WorkloadException::new);
        classes = classes == null || classes.isEmpty()
                ? List.of(new ServerClass(ServerClass.DEFAULT_NAME, servers, opsPerSecond, ServerClass.UNBOUNDED))
                : List.copyOf(classes);
        Set<String> names = new HashSet<>();
        long total = 0;
        for (ServerClass c : classes) {
            if (!names.add(c.name())) {
                throw new WorkloadException("cluster.serverClasses: duplicate name '" + c.name() + "'");
            }
            total += c.count();
        }
        if (total != servers) {
            throw new WorkloadException("cluster.servers (" + servers + ") must equal the classes' counts (" + total + ")");
        }
    }

    /** The paper's cluster: {@code servers} identical servers of speed {@code opsPerSecond}, memory not modelled. */
    public Cluster(int servers, double opsPerSecond, double linkBitsPerSecond) {
        this(servers, opsPerSecond, linkBitsPerSecond, null, null);
    }

    /** A heterogeneous cluster of {@code classes} (at least one); $N$ and $\bar\nu$ follow from them. */
    public static Cluster ofClasses(List<ServerClass> classes, double linkBitsPerSecond, ColdStartCost coldStart) {
        if (classes == null || classes.isEmpty()) {
            throw new WorkloadException("cluster.serverClasses must list at least one class");
        }
        long n = 0;
        double ops = 0;
        for (ServerClass c : classes) {
            n += c.count();
            ops += c.count() * c.opsPerSecond();
        }
        if (n > Integer.MAX_VALUE) {
            throw new WorkloadException("cluster.serverClasses: " + n + " servers in all is too many");
        }
        return new Cluster((int) n, ops / n, linkBitsPerSecond, classes, coldStart);
    }

    /** Whether the servers differ in speed or memory (more than one class). */
    public boolean heterogeneous() {
        return classes.size() > 1;
    }

    /** Whether any server's memory is modelled: then model caches are on. */
    public boolean memoryBounded() {
        return classes.stream().anyMatch(ServerClass::memoryBounded);
    }

    /** The largest memory of a server, $\max_c M_c$ ({@link ServerClass#UNBOUNDED} when a class gives none). */
    public double largestMemoryBytes() {
        return classes.stream().mapToDouble(ServerClass::memoryBytes).max().orElse(ServerClass.UNBOUNDED);
    }

    /**
     * Whether some models fit whole only on a few servers, and not all at once, said for a user; null when not. With
     * the distinct memories $L_1 > L_2 > \dots > L_k$, the models of $L_{i+1} < B_j \le L_i$ ($B_j$ the bytes of
     * model $j$) are held whole only by the servers of memory $L_i$ or more. When those models do not fit those
     * servers together (first fit, largest model first, into the largest servers first), they evict each other there
     * while their requests run: no placement keeps them loaded, and the model caches refuse parts
     * ({@code memoryViolations}) or load them again, whatever the policy. Checked level by level from the largest;
     * the first such level is named. With one memory, every model that fits a server fits each, and none is named.
     * Named as a limit in docs/optimizer.md.
     *
     * @param names      the models, in the order of {@code modelBytes}
     * @param modelBytes each model's bytes ($B_j$; 0 or NaN: not given, counts for none)
     */
    public String wholeModelShortfall(List<String> names, double[] modelBytes) {
        double[] levels = memoryLevels();
        for (int i = levels.length - 1; i > 0; i--) {
            double below = levels[i - 1];
            double level = levels[i];
            if (!packs(modelBytes, below, level)) {
                List<String> only = new ArrayList<>();
                for (int j = 0; j < modelBytes.length; j++) {
                    if (modelBytes[j] > below && modelBytes[j] <= level) {
                        only.add("'" + names.get(j) + "' (" + Math.round(modelBytes[j]) + " bytes)");
                    }
                }
                return "memory: " + String.join(", ", only) + " fit whole only on the " + serversWithMemoryAtLeast(level)
                        + " server(s) of " + Math.round(level) + " bytes or more, and not all at once: they evict each other "
                        + "there while their requests run, and parts are refused (memoryViolations) or loaded again "
                        + "under every policy; the predictions assume them loaded";
            }
        }
        return null;
    }

    /** The memory levels: the distinct class memories, ascending ({@link ServerClass#UNBOUNDED} last, if any). */
    public double[] memoryLevels() {
        return classes.stream().mapToDouble(ServerClass::memoryBytes).distinct().sorted().toArray();
    }

    /**
     * Whether the models of {@code below < bytes <= level} fit the servers of memory {@code level} or more together:
     * first fit, largest model first, into the largest servers first (with $k$ such models only the $k$ largest
     * servers can take one).
     */
    private boolean packs(double[] modelBytes, double below, double level) {
        double[] models = Arrays.stream(modelBytes).filter(b -> b > below && b <= level)
                .map(b -> -b).sorted().map(b -> -b).toArray();
        if (models.length == 0) {
            return true;
        }
        double[] room = new double[models.length];
        int n = 0;
        List<ServerClass> largestFirst = classes.stream().filter(c -> c.memoryBytes() >= level)
                .sorted(Comparator.comparingDouble(ServerClass::memoryBytes).reversed()).toList();
        for (ServerClass c : largestFirst) {
            for (int k = 0; k < c.count() && n < room.length; k++) {
                room[n++] = c.memoryBytes();
            }
        }
        for (double b : models) {
            int s = 0;
            while (s < n && !(b <= room[s])) {
                s++;
            }
            if (s == n) {
                return false;
            }
            room[s] -= b;
        }
        return true;
    }

    /** $n(L)$: the servers whose memory is at least {@code bytes}. */
    public int serversWithMemoryAtLeast(double bytes) {
        int n = 0;
        for (ServerClass c : classes) {
            n += c.memoryBytes() >= bytes ? c.count() : 0;
        }
        return n;
    }

    /** The class of server {@code s} ($0 \le s < N$; servers are numbered class by class, in order). */
    public int classOf(int s) {
        if (s < 0 || s >= servers) {
            throw new IndexOutOfBoundsException("server " + s + " of " + servers);
        }
        int first = 0;
        for (int c = 0; c < classes.size(); c++) {
            first += classes.get(c).count();
            if (s < first) {
                return c;
            }
        }
        throw new IllegalStateException("unreachable");
    }

    /**
     * The same cluster with another number of servers: only for a cluster of one class (its count changes).
     *
     * @throws IllegalStateException for a heterogeneous cluster, whose classes would have to be scaled
     */
    public Cluster withServers(int n) {
        if (heterogeneous()) {
            throw new IllegalStateException("a cluster of " + classes.size() + " server classes cannot be resized to " + n
                    + " servers");
        }
        ServerClass c = classes.get(0);
        return new Cluster(n, opsPerSecond, linkBitsPerSecond,
                List.of(new ServerClass(c.name(), n, c.opsPerSecond(), c.memoryBytes())), coldStart);
    }
}
