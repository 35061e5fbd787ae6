package dev.nona.dag;

import dev.nona.check.Checks;

/**
 * How a PipeDream profile (times per batch) becomes per-request ops and bytes.
 *
 * <p>PipeDream's profiler measures {@code forward_compute_time} in milliseconds for a whole batch and
 * {@code activation_size} in bytes for the whole batch. Per request:
 * $ops = \frac{forward\_ms}{1000} \cdot \frac{1}{batch} \cdot referenceOpsPerSecond$ and
 * $bytes(u \to v) = activation\_size(u) / batch$.
 *
 * @param referenceOpsPerSecond the speed, in operations per second, of the GPU that was profiled; finite, &gt; 0
 * @param batchSize             the batch the profile was taken at, &ge; 1
 */
public record PipeDreamConversion(double referenceOpsPerSecond, int batchSize) {
    /**
     * Default reference speed: 4e12 ops/s. Calibrated on {@code alexnet.txt}: its Conv2d(384, 256, 3x3) at
     * 13x13 does $2 \cdot 384 \cdot 256 \cdot 9 \cdot 169 \approx 2.99 \cdot 10^8$ FLOPs per image and took 4.423 ms
     * for 64 images, about $4.3 \cdot 10^{12}$ FLOP/s; so imported ops are close to FLOPs, the unit of the zoo.
     */
    public static final double DEFAULT_REFERENCE_OPS_PER_SECOND = 4.0e12;
    /** Default batch: 64, the batch PipeDream profiled the image models at. */
    public static final int DEFAULT_BATCH_SIZE = 64;

    public PipeDreamConversion {
        Checks.positive(referenceOpsPerSecond, "referenceOpsPerSecond");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize (" + batchSize + ") must be >= 1");
        }
    }

    /** The defaults: {@value #DEFAULT_REFERENCE_OPS_PER_SECOND} ops/s, batch {@value #DEFAULT_BATCH_SIZE}. */
    public static PipeDreamConversion defaults() {
        return new PipeDreamConversion(DEFAULT_REFERENCE_OPS_PER_SECOND, DEFAULT_BATCH_SIZE);
    }

    /** Ops per request of a node that took {@code forwardMs} milliseconds per batch. */
    public double ops(double forwardMs) {
        return forwardMs / 1000.0 / batchSize * referenceOpsPerSecond;
    }

    /** Bytes per request of an output of {@code activationBytes} bytes per batch. */
    public double bytes(double activationBytes) {
        return activationBytes / batchSize;
    }
}
