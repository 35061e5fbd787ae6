package dev.nona.optimize;

import dev.nona.dag.Triplet;
import java.util.ArrayList;
import java.util.List;

/** Enumerates $\Omega_t$ for tests: every set partition of the intermediates, times every (root part, sink part). */
final class TestingTriplets {
    private TestingTriplets() {}

    static List<Triplet> enumerate(List<String> intermediates) {
        List<Triplet> out = new ArrayList<>();
        if (intermediates.isEmpty()) {
            out.add(new Triplet(List.of(), 0, 0));
            return out;
        }
        for (List<List<String>> parts : partitions(intermediates)) {
            for (int k = 0; k < parts.size(); k++) {
                for (int l = 0; l < parts.size(); l++) {
                    out.add(new Triplet(parts, k, l));
                }
            }
        }
        return out;
    }

    static List<List<List<String>>> partitions(List<String> items) {
        List<List<List<String>>> out = new ArrayList<>();
        grow(items, 0, new ArrayList<>(), out);
        return out;
    }

    private static void grow(List<String> items, int i, List<List<String>> current, List<List<List<String>>> out) {
        if (i == items.size()) {
            out.add(current.stream().map(List::copyOf).toList());
            return;
        }
        for (int p = 0; p <= current.size(); p++) {
            if (p == current.size()) {
                current.add(new ArrayList<>());
            }
            current.get(p).add(items.get(i));
            grow(items, i + 1, current, out);
            current.get(p).remove(current.get(p).size() - 1);
            if (current.get(p).isEmpty()) {
                current.remove(p);
            }
        }
    }
}
