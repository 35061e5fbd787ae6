package dev.nona.demo;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** What the publisher has sent so far; read by the live view and the summary. Thread safe. */
final class DemoCounters {
    final AtomicLong requests = new AtomicLong();
    final AtomicLong malformed = new AtomicLong();
    final Map<String, AtomicLong> perModel = new ConcurrentHashMap<>();

    void request(String model) {
        requests.incrementAndGet();
        perModel.computeIfAbsent(model, m -> new AtomicLong()).incrementAndGet();
    }

    /** Requests published per model so far. */
    Map<String, Long> perModelSnapshot() {
        Map<String, Long> out = new TreeMap<>();
        perModel.forEach((m, n) -> out.put(m, n.get()));
        return out;
    }
}
