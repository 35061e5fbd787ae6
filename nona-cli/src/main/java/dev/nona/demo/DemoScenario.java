package dev.nona.demo;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the demo publishes: a small cluster, the five zoo models with a request rate each (requests/s), a
 * rate shift at half time (so that drift and re-optimisation happen), and a few malformed records.
 *
 * @param duration     how long requests are published
 * @param servers      inference servers reporting telemetry
 * @param before       rates (requests/s) in the first half
 * @param after        rates in the second half
 * @param malformed    malformed records published, spread over the run (each must become a dead letter)
 * @param opsPerSecond compute rate $\nu$ of every server
 * @param linkBitsPerSecond capacity $\mu$ of the bottleneck link
 * @param seed         seed of the Poisson arrivals
 */
public record DemoScenario(Duration duration, int servers, Map<String, Double> before, Map<String, Double> after,
        int malformed, double opsPerSecond, double linkBitsPerSecond, long seed) {

    public DemoScenario {
        if (duration.isNegative() || duration.toMillis() < 4_000) {
            throw new IllegalArgumentException("seconds (" + duration.toSeconds() + ") must be >= 4");
        }
        if (servers < 1) {
            throw new IllegalArgumentException("servers (" + servers + ") must be >= 1");
        }
        if (!before.keySet().equals(after.keySet())) {
            throw new IllegalArgumentException("rates before " + before.keySet() + " and after " + after.keySet()
                    + " must name the same models");
        }
        before.forEach(DemoScenario::checkRate);
        after.forEach(DemoScenario::checkRate);
        if (malformed < 0) {
            throw new IllegalArgumentException("malformed (" + malformed + ") must be >= 0");
        }
        before = Map.copyOf(new LinkedHashMap<>(before));
        after = Map.copyOf(new LinkedHashMap<>(after));
    }

    /**
     * The default: four servers of 10^12 ops/s on a 100 Gbit/s link, the five zoo models at 80 requests/s in total
     * in the first half and 20 requests/s in the second (ResNet18 30 -> 6, AlexNet 20 -> 6, VGG16 10 -> 2,
     * DenseNet121 12 -> 3, GPT-2 8 -> 3); eight malformed records. The shift changes what is best ({@code nona
     * solve}, controller-mapping, on this cluster): at the first half's load (server utilisation 0.19) every model
     * is best kept whole on one server (link load 0), at the second half's (utilisation 0.05) GPT-2's and
     * ResNet18's parallel branches are split over servers (link load 0.006; GPT-2's predicted JCT 32.3 -> 29.8
     * ms), so the re-optimisation after the shift publishes a new table. (At the higher load the fork-join and
     * the servers' queueing outweigh the parallel gain.) The load falls rather than rises so that the models'
     * cold starts (every server loads each model once) happen in the busy first half, not in the measured second.
     */
    public static DemoScenario standard(Duration duration) {
        Map<String, Double> before = Map.of("alexnet", 20.0, "vgg16", 10.0, "resnet18", 30.0, "densenet121", 12.0,
                "gpt2", 8.0);
        Map<String, Double> after = Map.of("alexnet", 6.0, "vgg16", 2.0, "resnet18", 6.0, "densenet121", 3.0,
                "gpt2", 3.0);
        return new DemoScenario(duration, 4, before, after, 8, 1.0e12, 1.0e11, 42L);
    }

    /** The models, in a fixed order. */
    public List<String> models() {
        return before.keySet().stream().sorted().toList();
    }

    /** The rate of {@code model} at {@code elapsed} into the run. */
    public double rate(String model, Duration elapsed) {
        return elapsed.compareTo(duration.dividedBy(2)) < 0 ? before.get(model) : after.get(model);
    }

    private static void checkRate(String model, Double rate) {
        if (rate == null || !(rate >= 0) || rate.isInfinite()) {
            throw new IllegalArgumentException("rate of " + model + " (" + rate + ") must be finite and >= 0");
        }
    }
}
