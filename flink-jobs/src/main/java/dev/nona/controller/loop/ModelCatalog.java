package dev.nona.controller.loop;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.ModelCatalogEntry;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.api.common.state.MapState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The model catalog as the control loop holds it (checkpointed): the DAG per model. A model added, replaced or
 * removed is a pending cause of re-optimisation and a {@code CATALOG_UPDATED} event; an entry equal to the one held
 * changes nothing. Logs as the control loop. Not thread safe: used by the task thread only.
 */
final class ModelCatalog {
    private static final Logger LOG = LoggerFactory.getLogger(ControlLoopFunction.class);

    private final MapState<String, CatalogDag> dags;
    private final PendingCauses pending;

    ModelCatalog(MapState<String, CatalogDag> dags, PendingCauses pending) {
        this.dags = Objects.requireNonNull(dags, "catalog state");
        this.pending = Objects.requireNonNull(pending, "pending causes");
    }

    void put(ModelCatalogEntry entry, LoopIo io) throws Exception {
        CatalogDag before = dags.get(entry.model());
        CatalogDag dag = CatalogDags.sized(entry); // the entry's sizeBytes on its tasks
        if (dag.equals(before)) {
            return;
        }
        dags.put(entry.model(), dag);
        String change = (before == null ? "catalog: model added " : "catalog: model replaced ") + entry.model();
        pending.markPending(change);
        LOG.info("Catalog changed: {} ({} tasks)", change, entry.dag().tasks().size());
        io.event(ControllerEventType.CATALOG_UPDATED, Map.of("change", change, "model", entry.model(),
                "tasks", entry.dag().tasks().size()));
    }

    /** A tombstone: the model leaves the catalog (nothing if it is not in it). */
    void remove(String model, LoopIo io) throws Exception {
        if (!dags.contains(model)) {
            return;
        }
        dags.remove(model);
        String change = "catalog: model removed " + model;
        pending.markPending(change);
        LOG.info("Catalog changed: {}", change);
        io.event(ControllerEventType.CATALOG_UPDATED, Map.of("change", change, "model", model));
    }

    /** The catalogued models, sorted. */
    Set<String> models() throws Exception {
        Set<String> models = new TreeSet<>();
        dags.keys().forEach(models::add);
        return models;
    }

    /** The DAG per catalogued model, sorted by model (a copy). */
    Map<String, CatalogDag> dags() throws Exception {
        Map<String, CatalogDag> copy = new TreeMap<>();
        for (Map.Entry<String, CatalogDag> e : dags.entries()) {
            copy.put(e.getKey(), e.getValue());
        }
        return copy;
    }
}
