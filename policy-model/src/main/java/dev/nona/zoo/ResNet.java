package dev.nona.zoo;

import dev.nona.dag.ModelDag;

/**
 * The ResNet family with basic blocks, as PipeDream profiled it: a 7x7 stem (convolution, batch norm, ReLU,
 * max pooling), four stages of basic blocks (convolution, batch norm, ReLU, convolution, batch norm, an optional
 * 1x1 downsampling convolution with batch norm on the shortcut, add, ReLU), 7x7 average pooling, a flatten
 * ({@code Size}, {@code View}) and a linear classifier. ResNet18 has 71 tasks.
 *
 * <p>Based on He, Zhang, Ren and Sun, "Deep Residual Learning for Image Recognition", CVPR 2016, and
 * torchvision's {@code resnet18}.
 */
final class ResNet {
    private static final int[] STAGE_CHANNELS = {64, 128, 256, 512};

    private ResNet() {
    }

    static ModelDag resnet18() {
        return build("resnet18", new int[] {2, 2, 2, 2});
    }

    private static ModelDag build(String name, int[] blocksPerStage) {
        ConvNetBuilder b = new ConvNetBuilder();
        FeatureMap x = b.input("input", 3, 224, 224);
        x = b.conv("conv1", x, 64, 7, 2, 3, false);
        x = b.batchNorm("bn1", x);
        x = b.relu("relu", x);
        x = b.maxPool("maxpool", x, 3, 2, 1);
        for (int stage = 0; stage < blocksPerStage.length; stage++) {
            for (int block = 0; block < blocksPerStage[stage]; block++) {
                int stride = stage > 0 && block == 0 ? 2 : 1;
                x = basicBlock(b, "layer" + (stage + 1) + "." + block + ".", x, STAGE_CHANNELS[stage], stride);
            }
        }
        x = b.avgPool("avgpool", x, 7, 1);
        x = b.flatten("flatten.size", "flatten.view", x);
        b.linear("fc", x, 1000);
        return b.build(name);
    }

    private static FeatureMap basicBlock(ConvNetBuilder b, String prefix, FeatureMap in, int channels, int stride) {
        FeatureMap x = b.conv(prefix + "conv1", in, channels, 3, stride, 1, false);
        x = b.batchNorm(prefix + "bn1", x);
        x = b.relu(prefix + "relu1", x);
        x = b.conv(prefix + "conv2", x, channels, 3, 1, 1, false);
        x = b.batchNorm(prefix + "bn2", x);
        FeatureMap shortcut = in;
        if (stride != 1 || in.channels() != channels) {
            shortcut = b.conv(prefix + "downsample.conv", in, channels, 1, stride, 0, false);
            shortcut = b.batchNorm(prefix + "downsample.bn", shortcut);
        }
        x = b.add(prefix + "add", x, shortcut);
        return b.relu(prefix + "relu2", x);
    }
}
