package dev.nona.zoo;

import dev.nona.dag.ModelDag;

/**
 * Builds the DAG of a convolutional network layer by layer, at the granularity of PipeDream's profiler
 * graphs: one task per convolution, batch norm, ReLU, pooling, add, concatenation, {@code Size}, {@code View},
 * dropout and linear layer. It tracks each output's shape for one request (batch 1, fp32) and counts
 * compute as follows (a multiply-add counts as 2 operations):
 * <ul>
 *   <li>convolution: $2 C_{in} k^2$ per output element, plus 1 per output element when it has a bias;</li>
 *   <li>linear: $2 n_{in}$ per output, plus 1 with a bias;</li>
 *   <li>batch norm (inference, folded to a scale and a shift): 2 per element;</li>
 *   <li>ReLU and add: 1 per output element;</li>
 *   <li>max pooling: $k^2 - 1$ comparisons per output element; average pooling: $k^2$ (adds and a scale);</li>
 *   <li>input, concatenation, {@code Size}, {@code View} and dropout (identity at inference): 0.</li>
 * </ul>
 * Output sizes follow PyTorch ({@code floor((h + 2p - k) / s) + 1}); {@code Size(0)} outputs one 4-byte integer.
 *
 * <p>Not thread-safe; one builder per generated model.
 */
final class ConvNetBuilder {
    /** Bytes of the scalar that {@code Size(0)} returns, as PipeDream records it. */
    static final double SIZE_OUTPUT_BYTES = 4;
    static final int BATCH_NORM_OPS_PER_ELEMENT = 2;

    private final GraphBuilder graph = new GraphBuilder();

    FeatureMap input(String id, int channels, int height, int width) {
        FeatureMap out = new FeatureMap(id, channels, height, width);
        graph.add(id, 0, out.bytes());
        return out;
    }

    FeatureMap conv(String id, FeatureMap in, int outChannels, int kernel, int stride, int padding, boolean bias) {
        FeatureMap out = new FeatureMap(id, outChannels,
                outSize(in.height(), kernel, stride, padding), outSize(in.width(), kernel, stride, padding));
        double perOutput = 2.0 * in.channels() * kernel * kernel + (bias ? 1 : 0);
        graph.add(id, perOutput * out.elements(), out.bytes(), in.id());
        return out;
    }

    FeatureMap batchNorm(String id, FeatureMap in) {
        return elementwise(id, in, BATCH_NORM_OPS_PER_ELEMENT);
    }

    FeatureMap relu(String id, FeatureMap in) {
        return elementwise(id, in, 1);
    }

    FeatureMap dropout(String id, FeatureMap in) {
        return elementwise(id, in, 0);
    }

    FeatureMap maxPool(String id, FeatureMap in, int kernel, int stride, int padding) {
        return pool(id, in, kernel, stride, padding, kernel * kernel - 1);
    }

    FeatureMap avgPool(String id, FeatureMap in, int kernel, int stride) {
        return pool(id, in, kernel, stride, 0, kernel * kernel);
    }

    FeatureMap add(String id, FeatureMap a, FeatureMap b) {
        checkSameShape(id, a, b);
        FeatureMap out = new FeatureMap(id, a.channels(), a.height(), a.width());
        graph.add(id, out.elements(), out.bytes(), a.id(), b.id());
        return out;
    }

    /** Concatenation along channels ({@code Concat(1)}), inputs in order. */
    FeatureMap concat(String id, FeatureMap a, FeatureMap b) {
        if (a.height() != b.height() || a.width() != b.width()) {
            throw new IllegalStateException("BUG: concat '" + id + "' of different spatial sizes");
        }
        FeatureMap out = new FeatureMap(id, a.channels() + b.channels(), a.height(), a.width());
        graph.add(id, 0, out.bytes(), a.id(), b.id());
        return out;
    }

    /**
     * PipeDream's flatten: a {@code Size(0)} task reading {@code in}, then a {@code View} task reading both
     * {@code in} and the size.
     */
    FeatureMap flatten(String sizeId, String viewId, FeatureMap in) {
        return flatten(sizeId, viewId, in, in);
    }

    /**
     * A flatten whose {@code Size(0)} reads {@code sizeOf} rather than {@code in}, as in torchvision's DenseNet
     * ({@code out.view(features.size(0), -1)}).
     */
    FeatureMap flatten(String sizeId, String viewId, FeatureMap in, FeatureMap sizeOf) {
        graph.add(sizeId, 0, SIZE_OUTPUT_BYTES, sizeOf.id());
        FeatureMap out = new FeatureMap(viewId, Math.toIntExact(in.elements()), 1, 1);
        graph.add(viewId, 0, out.bytes(), in.id(), sizeId);
        return out;
    }

    FeatureMap linear(String id, FeatureMap in, int outFeatures) {
        FeatureMap out = new FeatureMap(id, outFeatures, 1, 1);
        graph.add(id, (2.0 * in.elements() + 1) * outFeatures, out.bytes(), in.id());
        return out;
    }

    ModelDag build(String name) {
        return graph.build(name);
    }

    private FeatureMap elementwise(String id, FeatureMap in, int opsPerElement) {
        FeatureMap out = new FeatureMap(id, in.channels(), in.height(), in.width());
        graph.add(id, (double) opsPerElement * out.elements(), out.bytes(), in.id());
        return out;
    }

    private FeatureMap pool(String id, FeatureMap in, int kernel, int stride, int padding, int opsPerOutput) {
        FeatureMap out = new FeatureMap(id, in.channels(),
                outSize(in.height(), kernel, stride, padding), outSize(in.width(), kernel, stride, padding));
        graph.add(id, (double) opsPerOutput * out.elements(), out.bytes(), in.id());
        return out;
    }

    private static int outSize(int size, int kernel, int stride, int padding) {
        return Math.floorDiv(size + 2 * padding - kernel, stride) + 1;
    }

    private static void checkSameShape(String id, FeatureMap a, FeatureMap b) {
        if (a.channels() != b.channels() || a.height() != b.height() || a.width() != b.width()) {
            throw new IllegalStateException("BUG: add '" + id + "' of different shapes: " + a + " and " + b);
        }
    }
}
