package dev.nona.twin;

import dev.nona.check.Checks;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The executor twin's simulated cluster and its faults.
 *
 * @param servers            $N$ servers, named {@code s-0 … s-(N-1)} ({@link #serverId}); with classes, the sum of
 *                           their counts
 * @param opsPerSecond       $\nu$, every server's nominal compute rate (what its telemetry reports); with classes,
 *                           their count-weighted mean (each server computes and reports its class's)
 * @param linkBitsPerSecond  $\mu$, the bottleneck link's capacity
 * @param cacheSlots         models each server holds loaded at once (LRU), or 0 for no model caches (every model
 *                           warm everywhere, no cold start)
 * @param coldStartSeconds   $T_{CS}$, the time to load a model on a server that does not hold it
 * @param timeoutSeconds     a request not complete this long after the twin received its decision gets a
 *                           {@code timeout} outcome
 * @param slowFactors        server id to factor $\ge 1$: the server computes at $\nu$/factor (and reports $\nu$)
 * @param silenceAfterSeconds server id to seconds after the start: from then on the server neither runs stages nor
 *                           reports
 * @param classes            the server classes ({@code --server-class}), servers numbered class by class; one class
 *                           {@value ServerClass#DEFAULT_NAME} of unbounded memory when not given
 * @param coldStart          what loading a part costs ({@code --cold-start}), or null. With a class's memory or
 *                           a cold-start cost the servers keep caches of model parts by bytes ({@link #partCaches})
 *                           instead of {@code cacheSlots}, and report their class and memory
 */
public record TwinOptions(int servers, double opsPerSecond, double linkBitsPerSecond, int cacheSlots,
        double coldStartSeconds, double timeoutSeconds, Map<String, Double> slowFactors,
        Map<String, Double> silenceAfterSeconds, List<ServerClass> classes, ColdStartCost coldStart) {

    /** The most servers a twin runs (each is simulated in the twin's process, and reports once a second). */
    public static final int MAX_SERVERS = 100_000;

    public TwinOptions {
        if (servers < 1 || servers > MAX_SERVERS) {
            throw new IllegalArgumentException("--servers (" + servers + ") must be in [1, " + MAX_SERVERS + "]");
        }
        Checks.positive(opsPerSecond, "--ops-per-second");
        Checks.positive(linkBitsPerSecond, "--link-bits-per-second");
        if (cacheSlots < 0) {
            throw new IllegalArgumentException("--cache-slots (" + cacheSlots + ") must be >= 0");
        }
        Checks.nonNegative(coldStartSeconds, "--cold-start-seconds");
        Checks.positive(timeoutSeconds, "--timeout-seconds");
        slowFactors = Map.copyOf(slowFactors);
        silenceAfterSeconds = Map.copyOf(silenceAfterSeconds);
        classes = classes == null || classes.isEmpty()
                ? List.of(new ServerClass(ServerClass.DEFAULT_NAME, servers, opsPerSecond, ServerClass.UNBOUNDED))
                : List.copyOf(classes);
        long total = classes.stream().mapToLong(ServerClass::count).sum();
        if (total != servers) {
            throw new IllegalArgumentException("--servers (" + servers + ") must equal the server classes' counts ("
                    + total + ")");
        }
        if (cacheSlots > 0 && (coldStart != null || classes.stream().anyMatch(ServerClass::memoryBounded))) {
            throw new IllegalArgumentException("--cache-slots (" + cacheSlots + ") cannot be used with "
                    + "--server-class or --cold-start (the servers then cache parts by bytes)");
        }
        for (String id : slowFactors.keySet()) {
            requireServer("--slow-server", id, servers);
        }
        for (String id : silenceAfterSeconds.keySet()) {
            requireServer("--silence-server", id, servers);
        }
    }

    /** One class of {@code servers} identical servers without memory, no part caches: the twin before classes. */
    public TwinOptions(int servers, double opsPerSecond, double linkBitsPerSecond, int cacheSlots,
            double coldStartSeconds, double timeoutSeconds, Map<String, Double> slowFactors,
            Map<String, Double> silenceAfterSeconds) {
        this(servers, opsPerSecond, linkBitsPerSecond, cacheSlots, coldStartSeconds, timeoutSeconds, slowFactors,
                silenceAfterSeconds, null, null);
    }

    /**
     * A twin of {@code classes} (at least one): $N$ is their count, $\nu$ their count-weighted mean; the servers
     * cache parts by bytes when a class gives memory or {@code coldStart} is given (no model slots).
     */
    public static TwinOptions ofClasses(List<ServerClass> classes, ColdStartCost coldStart, double linkBitsPerSecond,
            double timeoutSeconds, Map<String, Double> slowFactors, Map<String, Double> silenceAfterSeconds) {
        if (classes.isEmpty()) {
            throw new IllegalArgumentException("--server-class must be given at least once");
        }
        long n = 0;
        double ops = 0;
        for (ServerClass c : classes) {
            n += c.count();
            ops += c.count() * c.opsPerSecond();
        }
        if (n > MAX_SERVERS) {
            throw new IllegalArgumentException("--server-class: " + n + " servers in all must be at most " + MAX_SERVERS);
        }
        return new TwinOptions((int) n, ops / n, linkBitsPerSecond, 0, 0, timeoutSeconds, slowFactors,
                silenceAfterSeconds, classes, coldStart);
    }

    /**
     * Whether the servers keep caches of model parts by bytes (a class gives memory, or a cold-start cost is given):
     * loads on first use, least-recently-used eviction of idle parts, and telemetry with class and memory.
     */
    public boolean partCaches() {
        return coldStart != null || classes.stream().anyMatch(ServerClass::memoryBounded);
    }

    /** The index in {@link #classes} of server {@code index}'s class (servers are numbered class by class). */
    public int classOf(int index) {
        int first = 0;
        for (int c = 0; c < classes.size(); c++) {
            first += classes.get(c).count();
            if (index < first) {
                return c;
            }
        }
        throw new IndexOutOfBoundsException("server " + index + " of " + servers);
    }

    /** The twin's defaults: four servers as in the demo, no faults. */
    public static TwinOptions defaults() {
        return new TwinOptions(4, 1.0e12, 1.0e10, 3, 0.5, 10, Map.of(), Map.of());
    }

    /** The id of server {@code index}, as the twin reports it in telemetry and expects it in decisions. */
    public static String serverId(int index) {
        return "s-" + index;
    }

    /** The servers' ids in index order. */
    public List<String> serverIds() {
        List<String> ids = new ArrayList<>(servers);
        for (int i = 0; i < servers; i++) {
            ids.add(serverId(i));
        }
        return ids;
    }

    /**
     * Parses repeated {@code ID:FACTOR} values of {@code --slow-server}.
     *
     * @throws IllegalArgumentException naming the option and the value when one is malformed, repeated, or its
     *                                  factor is not a finite number $\ge 1$
     */
    public static Map<String, Double> parseSlow(List<String> values) {
        return parsePairs("--slow-server", "ID:FACTOR", "FACTOR", values, 1, "must be a finite number >= 1");
    }

    /** Parses repeated {@code ID:AT_SECONDS} values of {@code --silence-server} (AT_SECONDS finite, $\ge 0$). */
    public static Map<String, Double> parseSilence(List<String> values) {
        return parsePairs("--silence-server", "ID:AT_SECONDS", "AT_SECONDS", values, 0, "must be a finite number >= 0");
    }

    private static Map<String, Double> parsePairs(String option, String form, String what, List<String> values,
            double min, String rule) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String value : values) {
            int colon = value.lastIndexOf(':');
            if (colon <= 0 || colon == value.length() - 1) {
                throw new IllegalArgumentException(option + " ('" + value + "') must be " + form);
            }
            String id = value.substring(0, colon).strip();
            String number = value.substring(colon + 1).strip();
            double x;
            try {
                x = Double.parseDouble(number);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " ('" + value + "'): " + what + " ('" + number + "') " + rule);
            }
            if (!(x >= min) || Double.isInfinite(x)) {
                throw new IllegalArgumentException(option + " ('" + value + "'): " + what + " (" + number + ") " + rule);
            }
            if (out.put(id, x) != null) {
                throw new IllegalArgumentException(option + " ('" + value + "'): server '" + id + "' is given twice");
            }
        }
        return out;
    }

    private static void requireServer(String option, String id, int servers) {
        int index = -1;
        if (id.startsWith("s-")) {
            try {
                index = Integer.parseInt(id.substring(2));
            } catch (NumberFormatException e) {
                index = -1;
            }
        }
        if (index < 0 || index >= servers || !serverId(index).equals(id)) {
            throw new IllegalArgumentException(option + ": server '" + id + "' is not one of s-0 .. s-" + (servers - 1));
        }
    }
}
