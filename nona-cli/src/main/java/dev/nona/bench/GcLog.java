package dev.nona.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pauses in a JVM's unified GC log ({@code -Xlog:gc,gc+heap=debug:file=...}): one line per pause, e.g.
 * {@code [61.2s][info][gc] GC(42) Pause Full (Diagnostic Command) 180M->52M(1024M) 143.2ms}, read as the heap before
 * it, the heap after it, the committed heap and the pause. Those figures are whole megabytes; when the log also has
 * the {@code gc+heap} block after the collection ({@code GC(42) Heap after GC invocations=...} then
 * {@code GC(42)  garbage-first heap   total 147456K, used 53488K}), the heap after it is that block's, to the
 * kilobyte. Lines of other kinds (concurrent phases, regions, metaspace) are skipped. The figure after a full
 * collection is the heap's live set at that moment: what the soak benchmark watches for growth
 * ({@link SoakBenchmark}).
 *
 * <p>Stateless and thread safe.
 */
final class GcLog {
    /**
     * One pause.
     *
     * @param id          the collection's number, {@code GC(id)}
     * @param kind        e.g. {@code Young (Normal) (G1 Evacuation Pause)}, {@code Full (System.gc())}
     * @param beforeBytes heap used before it
     * @param afterBytes  heap used after it
     * @param heapBytes   heap committed after it
     * @param millis      the pause
     */
    record Pause(long id, String kind, long beforeBytes, long afterBytes, long heapBytes, double millis) {
        /** A full collection asked for from outside ({@code jcmd PID GC.run}, {@code System.gc()}). */
        boolean requestedFull() {
            return kind.startsWith("Full") && (kind.contains("System.gc()") || kind.contains("Diagnostic Command"));
        }
    }

    private static final Pattern PAUSE = Pattern.compile(
            "GC\\((\\d+)\\) Pause (.+?) (\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\) ([0-9.]+)ms\\s*$");

    private static final Pattern HEAP_AFTER = Pattern.compile("GC\\((\\d+)\\) Heap after GC invocations=");
    private static final Pattern USED = Pattern.compile("GC\\((\\d+)\\)\\s+\\S.* heap\\s+total \\d+K, used (\\d+)K");

    private GcLog() {}

    /** The pauses of {@code lines}, in their order. */
    static List<Pause> pauses(List<String> lines) {
        Map<Long, Long> usedAfter = new HashMap<>();
        long afterOf = -1; // the collection whose "Heap after GC" block is being read
        for (String line : lines) {
            Matcher after = HEAP_AFTER.matcher(line);
            if (after.find()) {
                afterOf = Long.parseLong(after.group(1));
                continue;
            }
            Matcher used = USED.matcher(line);
            if (used.find() && Long.parseLong(used.group(1)) == afterOf) {
                usedAfter.put(afterOf, Long.parseLong(used.group(2)) << 10);
                afterOf = -1;
            }
        }
        List<Pause> out = new ArrayList<>();
        for (String line : lines) {
            Matcher m = PAUSE.matcher(line);
            if (m.find()) {
                long id = Long.parseLong(m.group(1));
                out.add(new Pause(id, m.group(2), bytes(m.group(3), m.group(4)),
                        usedAfter.getOrDefault(id, bytes(m.group(5), m.group(6))), bytes(m.group(7), m.group(8)),
                        Double.parseDouble(m.group(9))));
            }
        }
        return out;
    }

    private static long bytes(String number, String unit) {
        long n = Long.parseLong(number);
        return switch (unit) {
            case "K" -> n << 10;
            case "M" -> n << 20;
            default -> n << 30;
        };
    }
}
