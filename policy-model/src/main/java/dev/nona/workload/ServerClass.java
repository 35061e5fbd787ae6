package dev.nona.workload;

import dev.nona.check.Checks;
import java.util.Objects;

/**
 * One class of identical servers in a heterogeneous cluster ({@code cluster.serverClasses[i]} of a workload file):
 * how many, how fast, and how much memory each has for model parts.
 *
 * @param name         the class's name, unique in its cluster, never blank
 * @param count        servers of this class, at least 1
 * @param opsPerSecond compute rate $\nu_c$ of each server of the class, finite and $> 0$
 * @param memoryBytes  memory each server has for model parts, $> 0$; {@link #UNBOUNDED} when the workload gives none
 */
public record ServerClass(String name, int count, double opsPerSecond, double memoryBytes) {
    /** The memory of a server whose memory is not modelled: every part fits. */
    public static final double UNBOUNDED = Double.POSITIVE_INFINITY;
    /** The name of the one class of a cluster given as {@code servers} + {@code opsPerSecond}. */
    public static final String DEFAULT_NAME = "default";

    public ServerClass {
        Objects.requireNonNull(name, "server class name");
        if (name.isBlank()) {
            throw new WorkloadException("server class name must not be blank");
        }
        if (count < 1) {
            throw new WorkloadException("server class '" + name + "': count (" + count + ") must be >= 1");
        }
        Checks.positive(opsPerSecond, "server class '" + name + "': opsPerSecond", WorkloadException::new);
        if (!(memoryBytes > 0)) {
            throw new WorkloadException("server class '" + name + "': memoryBytes (" + memoryBytes + ") must be > 0");
        }
    }

    /** Whether this class's memory is modelled (finite). */
    public boolean memoryBounded() {
        return memoryBytes != UNBOUNDED;
    }

    /** Whether a part of {@code bytes} fits one server of this class (when every idle part is evicted). */
    public boolean fits(double bytes) {
        return bytes <= memoryBytes;
    }
}
