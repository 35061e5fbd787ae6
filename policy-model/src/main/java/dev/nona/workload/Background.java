package dev.nona.workload;

import dev.nona.check.Checks;

/**
 * Background jobs sharing the cluster with the inference jobs (Nona, Section IV-A): communication jobs that only
 * load the bottleneck link, and compute jobs that only load the servers.
 *
 * @param comm    background transfers, never null ({@link Comm#NONE} when absent)
 * @param compute background compute jobs, never null ({@link Compute#NONE} when absent)
 */
public record Background(Comm comm, Compute compute) {
    /** No background load at all. */
    public static final Background NONE = new Background(Comm.NONE, Compute.NONE);

    public Background {
        comm = comm == null ? Comm.NONE : comm;
        compute = compute == null ? Compute.NONE : compute;
    }

    /** True if background transfers or background compute jobs arrive (a rate above 0). */
    public boolean hasJobs() {
        return comm.ratePerSecond() > 0 || compute.ratePerSecond() > 0;
    }

    /**
     * Background transfers over the bottleneck link: a Poisson stream of transfers of a fixed size.
     *
     * @param ratePerSecond transfers per second, finite and $\ge 0$
     * @param bytes         bytes per transfer, finite and $\ge 0$
     */
    public record Comm(double ratePerSecond, double bytes) {
        public static final Comm NONE = new Comm(0, 0);

        public Comm {
            Checks.nonNegative(ratePerSecond, "background.comm.ratePerSecond", WorkloadException::new);
            Checks.nonNegative(bytes, "background.comm.bytes", WorkloadException::new);
        }

        /** Bits per transfer. */
        public double bits() {
            return 8.0 * bytes;
        }

        /**
         * The background stream that alone loads a link of {@code linkBitsPerSecond} to {@code rho}, with transfers
         * of {@code bytes} each.
         */
        public static Comm ofLoad(double rho, double bytes, double linkBitsPerSecond) {
            Checks.nonNegative(rho, "background link load", WorkloadException::new);
            Checks.positive(bytes, "background.comm.bytes", WorkloadException::new);
            return new Comm(rho * linkBitsPerSecond / (8.0 * bytes), bytes);
        }
    }

    /**
     * Background compute jobs: a Poisson stream of single-task jobs of a fixed size, spread over the servers.
     *
     * @param ratePerSecond jobs per second over the whole cluster, finite and $\ge 0$
     * @param ops           operations per job, finite and $\ge 0$
     */
    public record Compute(double ratePerSecond, double ops) {
        public static final Compute NONE = new Compute(0, 0);

        public Compute {
            Checks.nonNegative(ratePerSecond, "background.compute.ratePerSecond", WorkloadException::new);
            Checks.nonNegative(ops, "background.compute.ops", WorkloadException::new);
        }
    }
}
