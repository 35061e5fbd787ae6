package dev.nona.sim;

import dev.nona.check.Checks;

/**
 * The simulated cluster: $N$ identical servers computing $\nu$ operations/s and one bottleneck link of
 * $\mu$ bits/s shared by every transfer between distinct servers (Nona, Section III-A).
 *
 * @param servers           $N$, at least 1
 * @param opsPerSecond      $\nu$, finite and $> 0$
 * @param linkBitsPerSecond $\mu$, finite and $> 0$
 */
public record SimCluster(int servers, double opsPerSecond, double linkBitsPerSecond) {
    public SimCluster {
        if (servers < 1) {
            throw new IllegalArgumentException("cluster servers (" + servers + ") must be >= 1");
        }
        Checks.positive(opsPerSecond, "cluster opsPerSecond");
        Checks.positive(linkBitsPerSecond, "cluster linkBitsPerSecond");
    }

    public SimCluster withServers(int n) {
        return new SimCluster(n, opsPerSecond, linkBitsPerSecond);
    }

    public SimCluster withLinkBitsPerSecond(double mu) {
        return new SimCluster(servers, opsPerSecond, mu);
    }
}
