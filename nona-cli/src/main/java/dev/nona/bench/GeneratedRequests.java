package dev.nona.bench;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/**
 * Generates request {@code i} as the JSON bytes a producer would write to {@code inference-requests}: models in
 * round robin, 16 tenants, one request per millisecond of event time. Deterministic: request {@code i} is the same
 * bytes in every job and every run, so two jobs over the same count see the same input.
 */
public final class GeneratedRequests implements GeneratorFunction<Long, byte[]> {
    private static final long serialVersionUID = 1L;
    /** Event time of request 0. */
    public static final long BASE = 1_700_000_000_000L;

    private final String[] models;

    public GeneratedRequests(List<String> models) {
        if (models.isEmpty()) {
            throw new IllegalArgumentException("models must not be empty");
        }
        this.models = models.toArray(String[]::new);
    }

    @Override
    public byte[] map(Long index) {
        long i = index;
        String json = "{\"schemaVersion\":1,\"id\":\"r-" + i + "\",\"model\":\"" + models[(int) (i % models.length)]
                + "\",\"tenant\":\"t" + (i & 15) + "\",\"eventTime\":" + (BASE + i) + ",\"payloadBytes\":1024}";
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
