package dev.nona.zoo;

/**
 * The output tensor of one task of a convolutional network for one request: {@code channels x height x width}
 * fp32 values (a flat vector is {@code n x 1 x 1}).
 *
 * @param id       the producing task
 * @param channels number of channels (or features of a vector)
 * @param height   spatial height
 * @param width    spatial width
 */
record FeatureMap(String id, int channels, int height, int width) {
    /** Bytes of one fp32 value. */
    static final int FP32_BYTES = 4;

    FeatureMap {
        if (channels <= 0 || height <= 0 || width <= 0) {
            throw new IllegalArgumentException(
                    "feature map of '" + id + "' (" + channels + "x" + height + "x" + width + ") must be positive");
        }
    }

    long elements() {
        return (long) channels * height * width;
    }

    double bytes() {
        return (double) elements() * FP32_BYTES;
    }
}
