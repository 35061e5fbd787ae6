package dev.nona.queueing;

/**
 * The two server waits the server-queueing extension charges (see {@link ServerQueue#waits}): an <em>entry</em> wait
 * $W$ for a task that joins a server's queue from outside (a job's first task, the first task of a part sent to
 * another server, a task whose input just arrived over the link), and a <em>re-entry</em> stretch $f$: a task that
 * follows the same job's previous task on the same server waits $f \cdot p/\nu$.
 *
 * @param entry   $W$ in seconds, $\ge 0$; $+\infty$ when the servers are overloaded
 * @param stretch $f = u/(1-u)$, $\ge 0$; $+\infty$ when the servers are overloaded
 */
public record ServerWaits(double entry, double stretch) {
    /** No server waiting at all: the paper's formulation. */
    public static final ServerWaits NONE = new ServerWaits(0, 0);

    public ServerWaits {
        if (!(entry >= 0)) {
            throw new IllegalArgumentException("entry wait (" + entry + ") must be >= 0");
        }
        if (!(stretch >= 0)) {
            throw new IllegalArgumentException("re-entry stretch (" + stretch + ") must be >= 0");
        }
    }

    /** Whether both are finite (the servers are stable). */
    public boolean finite() {
        return Double.isFinite(entry) && Double.isFinite(stretch);
    }

    /** The re-entry wait of a task of {@code serviceSeconds}: $f \cdot s$. */
    public double reentry(double serviceSeconds) {
        return stretch * serviceSeconds;
    }
}
