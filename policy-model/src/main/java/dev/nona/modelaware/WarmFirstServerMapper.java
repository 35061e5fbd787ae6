package dev.nona.modelaware;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Maps the parts of a sampled Nona placement to distinct servers, model-aware: servers that hold the model and
 * have fewer than {@code targetOngoingRequests} requests in flight come first (least loaded first), then the
 * other eligible servers in uniformly random order (Nona's default). Parts are listed in the sampler's order,
 * so the root's part lands on the warmest server.
 *
 * <p>Based on: Nona (CloudNet'24), Section III-D (online stage) and K. Liu, MEng thesis, MIT, 2025,
 * Section 4.5 (colocation). Not thread-safe (reads a mutable registry, draws from {@code random}).
 */
public final class WarmFirstServerMapper {
    private final ModelRegistry registry;
    private final RandomGenerator random;

    public WarmFirstServerMapper(ModelRegistry registry, RandomGenerator random) {
        this.registry = registry;
        this.random = random;
    }

    /**
     * @param model    the model the job needs
     * @param parts    how many distinct servers to return
     * @param eligible the servers that may be used (e.g. those up), no duplicates
     * @return {@code parts} distinct servers, warm ones under target first
     * @throws IllegalArgumentException if fewer than {@code parts} servers are eligible
     */
    public List<String> map(String model, int parts, List<String> eligible) {
        Set<String> pool = new LinkedHashSet<>(eligible);
        if (parts < 0 || parts > pool.size()) {
            throw new IllegalArgumentException("parts (" + parts + ") must be between 0 and the "
                    + pool.size() + " eligible servers");
        }
        List<String> warm = new ArrayList<>(registry.residentServers(model).stream()
                .filter(pool::contains)
                .filter(registry::underTarget)
                .sorted(Comparator.comparingInt(registry::ongoing))
                .toList());
        List<String> rest = new ArrayList<>(pool);
        rest.removeAll(warm);
        shuffle(rest);
        warm.addAll(rest);
        return List.copyOf(warm.subList(0, parts));
    }

    private void shuffle(List<String> list) {
        for (int i = list.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            String tmp = list.get(i);
            list.set(i, list.get(j));
            list.set(j, tmp);
        }
    }
}
