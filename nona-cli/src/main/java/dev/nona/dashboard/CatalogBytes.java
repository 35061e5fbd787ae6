package dev.nona.dashboard;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.topics.Topics;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Each model's bytes by {@code model-catalog}, as the topic's records give them (a tombstone removes the model), so
 * that {@code nona status} and the dashboard call a model warm on a server by the controller's rule: only where the
 * server holds it whole ({@link CachedModel#holdsWhole}). A model not in the catalog, or without bytes there, is warm
 * as reported, as for the controller. A record that does not parse is skipped (the controller dead-letters it).
 * Not thread-safe.
 */
public final class CatalogBytes implements ToDoubleFunction<String> {
    private final JsonSerde<ModelCatalogEntry> serde = JsonSerde.forTopic(Topics.MODEL_CATALOG);
    private final Map<String, Double> bytes = new HashMap<>();

    /** A {@code model-catalog} record: an entry, or a tombstone (null value) of the model named by the key. */
    public void accept(byte[] key, byte[] value) {
        if (value == null) {
            if (key != null) {
                bytes.remove(new String(key, StandardCharsets.UTF_8));
            }
            return;
        }
        Parsed<ModelCatalogEntry> parsed = serde.parse(value);
        if (parsed.ok()) {
            try {
                bytes.put(parsed.value().model(), CatalogDags.bytes(CatalogDags.sized(parsed.value())));
            } catch (IllegalArgumentException e) {
                bytes.remove(parsed.value().model()); // beyond the limits: the controller rejects it too
            }
        }
    }

    /** The model's bytes by the catalog; 0 when the catalog does not have it or gives it none. */
    @Override
    public double applyAsDouble(String model) {
        return bytes.getOrDefault(model, 0.0);
    }

    /** The models of {@code held} the server holds whole ({@link CachedModel#whole}). */
    public List<String> whole(List<CachedModel> held) {
        return CachedModel.whole(held, this);
    }

    /** The models of {@code held} the server holds only some of ({@link CachedModel#partly}). */
    public List<String> partly(List<CachedModel> held) {
        return CachedModel.partly(held, this);
    }
}
