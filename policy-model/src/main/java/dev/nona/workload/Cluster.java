package dev.nona.workload;

import dev.nona.check.Checks;

/**
 * The cluster a workload runs on: $N$ identical servers computing $\nu$ operations/s each, joined by one
 * bottleneck link of capacity $\mu$ bits/s (Nona, Section III-B).
 *
 * @param servers           number of servers $N$, at least 1
 * @param opsPerSecond      compute rate $\nu$ of each server, finite and $> 0$
 * @param linkBitsPerSecond capacity $\mu$ of the bottleneck link, finite and $> 0$
 */
public record Cluster(int servers, double opsPerSecond, double linkBitsPerSecond) {
    public Cluster {
        if (servers < 1) {
            throw new WorkloadException("cluster.servers (" + servers + ") must be >= 1");
        }
        Checks.positive(opsPerSecond, "cluster.opsPerSecond", WorkloadException::new);
        Checks.positive(linkBitsPerSecond, "cluster.linkBitsPerSecond", WorkloadException::new);
    }

    /** The same cluster with another number of servers. */
    public Cluster withServers(int n) {
        return new Cluster(n, opsPerSecond, linkBitsPerSecond);
    }
}
