package dev.nona.dag;

import java.util.Objects;

/**
 * A data dependency: task {@code to} needs {@code bytes} of the output of task {@code from}.
 *
 * @param from  producer task id
 * @param to    consumer task id
 * @param bytes bytes transferred per request if the endpoints run on different servers
 *              (the paper's $b^{(t,t')}$ is in bits: $b = 8 \cdot bytes$), finite and $\ge 0$
 */
public record Edge(String from, String to, double bytes) {
    public Edge {
        Objects.requireNonNull(from, "edge from");
        Objects.requireNonNull(to, "edge to");
        if (!(bytes >= 0) || Double.isInfinite(bytes)) {
            throw new DagValidationException("edge " + from + "->" + to + ": bytes (" + bytes + ") must be finite and >= 0");
        }
    }

    /** The paper's $b^{(t,t')}$ in bits. */
    public double bits() {
        return 8.0 * bytes;
    }
}
