package dev.nona.zoo;

import dev.nona.dag.ModelDag;

/**
 * The DenseNet-BC family as PipeDream profiled it: a 7x7 stem (convolution, batch norm, ReLU, max pooling), dense
 * blocks whose layers are batch norm, ReLU, 1x1 convolution, batch norm, ReLU, 3x3 convolution and a channel
 * concatenation of the block's running features with the new ones, transitions (batch norm, ReLU, 1x1
 * convolution halving the channels, 2x2 average pooling), then batch norm, ReLU, 7x7 average pooling, a flatten
 * ({@code Size}, {@code View}) and a linear classifier. DenseNet121 has 429 tasks.
 *
 * <p>Based on Huang, Liu, van der Maaten and Weinberger, "Densely Connected Convolutional Networks", CVPR 2017,
 * and torchvision's {@code densenet121} (growth rate 32, bottleneck width 4, 64 initial features).
 */
final class DenseNet {
    private static final int GROWTH_RATE = 32;
    private static final int BOTTLENECK_WIDTH = 4;
    private static final int INITIAL_FEATURES = 64;

    private DenseNet() {
    }

    static ModelDag densenet121() {
        return build("densenet121", new int[] {6, 12, 24, 16});
    }

    private static ModelDag build(String name, int[] layersPerBlock) {
        ConvNetBuilder b = new ConvNetBuilder();
        FeatureMap x = b.input("input", 3, 224, 224);
        x = b.conv("features.conv0", x, INITIAL_FEATURES, 7, 2, 3, false);
        x = b.batchNorm("features.norm0", x);
        x = b.relu("features.relu0", x);
        x = b.maxPool("features.pool0", x, 3, 2, 1);
        for (int block = 1; block <= layersPerBlock.length; block++) {
            for (int layer = 1; layer <= layersPerBlock[block - 1]; layer++) {
                x = denseLayer(b, "features.denseblock" + block + ".denselayer" + layer + ".", x);
            }
            if (block < layersPerBlock.length) {
                x = transition(b, "features.transition" + block + ".", x);
            }
        }
        FeatureMap features = b.batchNorm("features.norm5", x);
        x = b.relu("features.relu5", features);
        x = b.avgPool("avgpool", x, 7, 1);
        x = b.flatten("flatten.size", "flatten.view", x, features);
        b.linear("classifier", x, 1000);
        return b.build(name);
    }

    private static FeatureMap denseLayer(ConvNetBuilder b, String prefix, FeatureMap features) {
        FeatureMap x = b.batchNorm(prefix + "norm1", features);
        x = b.relu(prefix + "relu1", x);
        x = b.conv(prefix + "conv1", x, BOTTLENECK_WIDTH * GROWTH_RATE, 1, 1, 0, false);
        x = b.batchNorm(prefix + "norm2", x);
        x = b.relu(prefix + "relu2", x);
        x = b.conv(prefix + "conv2", x, GROWTH_RATE, 3, 1, 1, false);
        return b.concat(prefix + "concat", features, x);
    }

    private static FeatureMap transition(ConvNetBuilder b, String prefix, FeatureMap in) {
        FeatureMap x = b.batchNorm(prefix + "norm", in);
        x = b.relu(prefix + "relu", x);
        x = b.conv(prefix + "conv", x, in.channels() / 2, 1, 1, 0, false);
        return b.avgPool(prefix + "pool", x, 2, 2);
    }
}
