package dev.nona.topics.serde;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Optional;

/**
 * The size of a {@code model-catalog} entry's DAG, read before the entry is parsed: its {@code model}, and the number
 * of elements of {@code dag.tasks} and {@code dag.edges}, counted by a streaming scan that builds nothing (each
 * element is skipped, not read). A controller that bounds DAG sizes checks the counts first, so an oversized DAG is
 * turned away in one pass over its bytes, without building 30,000 task records and validating their graph.
 *
 * <p>The scan runs on the shared factory ({@link TopicJson}) under {@link RecordLimits}' bounds, so it too stops at
 * the first token over one. Linear in the value's size; thread-safe.
 *
 * @param model the top-level {@code model} string, or {@code null} when absent or not a string
 * @param tasks the elements of {@code dag.tasks} (0 when absent)
 * @param edges the elements of {@code dag.edges} (0 when absent)
 */
public record DagCounts(String model, int tasks, int edges) {

    /** The counts, or empty when the value is not a JSON object of that shape (the full parse then says why). */
    public static Optional<DagCounts> scan(byte[] value) {
        if (value == null || TextProbe.binaryReason(value) != null) {
            return Optional.empty();
        }
        try (JsonParser parser = TopicJson.mapper().createParser(value)) {
            // Counting needs no duplicate check (the parse that follows makes it): it cost a third of the scan.
            parser.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            String model = null;
            int[] counts = {0, 0};
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                if ("model".equals(name) && token == JsonToken.VALUE_STRING) {
                    model = parser.getText();
                } else if ("dag".equals(name) && token == JsonToken.START_OBJECT) {
                    countDag(parser, counts);
                } else {
                    parser.skipChildren();
                }
            }
            return Optional.of(new DagCounts(model, counts[0], counts[1]));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static void countDag(JsonParser parser, int[] counts) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken token = parser.nextToken();
            int slot = "tasks".equals(name) ? 0 : "edges".equals(name) ? 1 : -1;
            if (slot >= 0 && token == JsonToken.START_ARRAY) {
                counts[slot] = countElements(parser);
            } else {
                parser.skipChildren();
            }
        }
    }

    private static int countElements(JsonParser parser) throws IOException {
        int n = 0;
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            if (t == null) {
                throw new java.io.EOFException("end of input inside an array");
            }
            parser.skipChildren();
            n++;
        }
        return n;
    }
}
