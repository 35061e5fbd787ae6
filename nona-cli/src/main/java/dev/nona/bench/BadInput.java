package dev.nona.bench;

import dev.nona.topics.Topics;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The malformed records of {@code bench latency --bad-input-rate}, a fixed cycle of 100: one 5 MB value on
 * {@code inference-requests}, one 30,000-task DAG on {@code model-catalog}, four requests with a 300 kB field, 47
 * requests nested 5,000 deep and 47 binary values (1 KiB of seeded random bytes). Each payload is built once;
 * record {@code i} is {@code record(i)}. Thread-safe (immutable after construction).
 */
final class BadInput {
    /** What a malformed record is. */
    enum Kind { OVERSIZED, HUGE_DAG, LARGE_FIELD, DEEP, BINARY }

    /** One malformed record: where it goes, its key and its value. */
    record Bad(Kind kind, String topic, byte[] key, byte[] value) {}

    static final int CYCLE = 100;
    static final int OVERSIZED_BYTES = 5_000_000;
    static final int DAG_TASKS = 30_000;
    static final int LARGE_FIELD_CHARS = 300_000;
    static final int DEPTH = 5_000;
    private static final int BINARY_BYTES = 1024;
    private static final int BINARY_VARIANTS = 16;

    private final byte[] oversized;
    private final byte[] hugeDag;
    private final byte[] largeField;
    private final byte[] deep;
    private final byte[][] binary = new byte[BINARY_VARIANTS][];

    BadInput() {
        String request = "{\"schemaVersion\":1,\"id\":\"bad\",\"model\":\"%s\",\"tenant\":\"bad\",\"eventTime\":1}";
        oversized = new byte[OVERSIZED_BYTES];
        Arrays.fill(oversized, (byte) ' ');
        byte[] head = request.formatted("m").getBytes(StandardCharsets.UTF_8);
        System.arraycopy(head, 0, oversized, 0, head.length);
        hugeDag = JsonSerde.forTopic(Topics.MODEL_CATALOG).serialize(chain("bad-dag", DAG_TASKS));
        largeField = request.formatted("x".repeat(LARGE_FIELD_CHARS)).getBytes(StandardCharsets.UTF_8);
        deep = ("{\"schemaVersion\":1,\"id\":\"bad\",\"payload\":" + "[".repeat(DEPTH) + "]".repeat(DEPTH) + "}")
                .getBytes(StandardCharsets.UTF_8);
        Random random = new Random(42);
        for (int v = 0; v < BINARY_VARIANTS; v++) {
            binary[v] = new byte[BINARY_BYTES];
            random.nextBytes(binary[v]);
            binary[v][0] = (byte) (0x80 | binary[v][0]); // never a byte that could start JSON text
        }
    }

    /** The kind of the {@code i}-th malformed record of the cycle. */
    static Kind kind(long i) {
        int k = (int) (i % CYCLE);
        return k == 0 ? Kind.OVERSIZED : k == 1 ? Kind.HUGE_DAG : k < 6 ? Kind.LARGE_FIELD : k < 53 ? Kind.DEEP
                : Kind.BINARY;
    }

    /** The {@code i}-th malformed record. */
    Bad record(long i) {
        Kind kind = kind(i);
        String requests = Topics.INFERENCE_REQUESTS.name();
        return switch (kind) {
            case OVERSIZED -> new Bad(kind, requests, null, oversized);
            case HUGE_DAG -> new Bad(kind, Topics.MODEL_CATALOG.name(), "bad-dag".getBytes(StandardCharsets.UTF_8),
                    hugeDag);
            case LARGE_FIELD -> new Bad(kind, requests, null, largeField);
            case DEEP -> new Bad(kind, requests, null, deep);
            case BINARY -> new Bad(kind, requests, null, binary[(int) (i % BINARY_VARIANTS)]);
        };
    }

    /** The average size of a malformed record over the cycle, in bytes (for the broker's room). */
    long meanBytes() {
        long total = 0;
        for (int i = 0; i < CYCLE; i++) {
            total += record(i).value().length;
        }
        return total / CYCLE;
    }

    private static ModelCatalogEntry chain(String model, int n) {
        List<CatalogTask> tasks = new ArrayList<>(n);
        List<CatalogEdge> edges = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tasks.add(new CatalogTask("t" + i, 1.0e6));
            if (i > 0) {
                edges.add(new CatalogEdge("t" + (i - 1), "t" + i, 1.0e3));
            }
        }
        return ModelCatalogEntry.of(model, new CatalogDag(model, tasks, edges));
    }
}
