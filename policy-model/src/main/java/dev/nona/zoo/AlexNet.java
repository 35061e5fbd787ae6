package dev.nona.zoo;

import dev.nona.dag.ModelDag;

/**
 * AlexNet as profiled by PipeDream (torchvision's single-GPU variant, 64-192-384-256-256 channels, no adaptive
 * pooling): 23 tasks for a 3x224x224 image.
 *
 * <p>Based on Krizhevsky, "One weird trick for parallelizing convolutional neural networks", arXiv:1404.5997, 2014,
 * and torchvision's {@code alexnet}.
 */
final class AlexNet {
    private AlexNet() {
    }

    static ModelDag build() {
        ConvNetBuilder b = new ConvNetBuilder();
        FeatureMap x = b.input("input", 3, 224, 224);
        x = b.conv("features.conv1", x, 64, 11, 4, 2, true);
        x = b.relu("features.relu1", x);
        x = b.maxPool("features.pool1", x, 3, 2, 0);
        x = b.conv("features.conv2", x, 192, 5, 1, 2, true);
        x = b.relu("features.relu2", x);
        x = b.maxPool("features.pool2", x, 3, 2, 0);
        x = b.conv("features.conv3", x, 384, 3, 1, 1, true);
        x = b.relu("features.relu3", x);
        x = b.conv("features.conv4", x, 256, 3, 1, 1, true);
        x = b.relu("features.relu4", x);
        x = b.conv("features.conv5", x, 256, 3, 1, 1, true);
        x = b.relu("features.relu5", x);
        x = b.maxPool("features.pool5", x, 3, 2, 0);
        x = b.flatten("flatten.size", "flatten.view", x);
        x = b.dropout("classifier.dropout1", x);
        x = b.linear("classifier.fc1", x, 4096);
        x = b.relu("classifier.relu1", x);
        x = b.dropout("classifier.dropout2", x);
        x = b.linear("classifier.fc2", x, 4096);
        x = b.relu("classifier.relu2", x);
        b.linear("classifier.fc3", x, 1000);
        return b.build("alexnet");
    }
}
