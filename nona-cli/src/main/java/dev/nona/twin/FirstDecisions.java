package dev.nona.twin;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The request ids the twin has acted on, for the contract "the first decision per request id wins"
 * (docs/topics.md, Delivery): an id is remembered for {@code horizonMillis} after its first decision, long enough
 * for a controller's replay to reach back (a checkpoint interval plus a restart). Not thread-safe.
 */
final class FirstDecisions {
    private final long horizonMillis;
    private final LinkedHashMap<String, Long> seen = new LinkedHashMap<>();

    FirstDecisions(long horizonMillis) {
        this.horizonMillis = horizonMillis;
    }

    /** True if {@code requestId} is new (and remembers it from {@code nowMillis}); false for a later duplicate. */
    boolean first(String requestId, long nowMillis) {
        for (Iterator<Map.Entry<String, Long>> it = seen.entrySet().iterator(); it.hasNext(); ) {
            if (it.next().getValue() > nowMillis - horizonMillis) {
                break;
            }
            it.remove();
        }
        return seen.putIfAbsent(requestId, nowMillis) == null;
    }

    int size() {
        return seen.size();
    }
}
