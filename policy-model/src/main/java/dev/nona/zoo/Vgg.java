package dev.nona.zoo;

import dev.nona.dag.ModelDag;

/**
 * The VGG family as PipeDream profiled it (torchvision's {@code vgg} without batch norm and without adaptive
 * pooling): 3x3 convolutions each followed by a ReLU, 2x2 max pooling between stages, then a flatten
 * ({@code Size}, {@code View}) and three linear layers with ReLU and dropout. VGG16 has 41 tasks.
 *
 * <p>Based on Simonyan and Zisserman, "Very Deep Convolutional Networks for Large-Scale Image Recognition",
 * ICLR 2015, configuration D.
 */
final class Vgg {
    /** Marks a max pooling layer in a configuration. */
    private static final int POOL = -1;
    private static final int[] VGG16 = {
        64, 64, POOL, 128, 128, POOL, 256, 256, 256, POOL, 512, 512, 512, POOL, 512, 512, 512, POOL};

    private Vgg() {
    }

    static ModelDag vgg16() {
        return build("vgg16", VGG16);
    }

    private static ModelDag build(String name, int[] config) {
        ConvNetBuilder b = new ConvNetBuilder();
        FeatureMap x = b.input("input", 3, 224, 224);
        int conv = 0;
        int pool = 0;
        for (int channels : config) {
            if (channels == POOL) {
                x = b.maxPool("features.pool" + ++pool, x, 2, 2, 0);
            } else {
                conv++;
                x = b.conv("features.conv" + conv, x, channels, 3, 1, 1, true);
                x = b.relu("features.relu" + conv, x);
            }
        }
        x = b.flatten("flatten.size", "flatten.view", x);
        x = b.linear("classifier.fc1", x, 4096);
        x = b.relu("classifier.relu1", x);
        x = b.dropout("classifier.dropout1", x);
        x = b.linear("classifier.fc2", x, 4096);
        x = b.relu("classifier.relu2", x);
        x = b.dropout("classifier.dropout2", x);
        b.linear("classifier.fc3", x, 1000);
        return b.build(name);
    }
}
