package dev.nona.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pauses in a JVM's unified GC log ({@code -Xlog:gc:file=...}, the {@code gc} tag at {@code info}): one line per
 * pause, e.g. {@code [61.2s][info][gc] GC(42) Pause Full (System.gc()) 180M->52M(1024M) 143.2ms}, read as the heap
 * before it, the heap after it, the committed heap and the pause. Lines of other kinds (concurrent phases, the
 * start-up banner) are skipped. The figure after a full collection is the heap's live set at that moment: what the
 * soak benchmark watches for growth ({@link SoakBenchmark}).
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

    private GcLog() {}

    /** The pauses of {@code lines}, in their order. */
    static List<Pause> pauses(List<String> lines) {
        List<Pause> out = new ArrayList<>();
        for (String line : lines) {
            Matcher m = PAUSE.matcher(line);
            if (m.find()) {
                out.add(new Pause(Long.parseLong(m.group(1)), m.group(2), bytes(m.group(3), m.group(4)),
                        bytes(m.group(5), m.group(6)), bytes(m.group(7), m.group(8)), Double.parseDouble(m.group(9))));
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
