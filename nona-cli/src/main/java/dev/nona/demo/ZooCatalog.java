package dev.nona.demo;

import dev.nona.dag.ModelDag;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.zoo.ModelZoo;

/** The {@code model-catalog} entry of a zoo model: its generated DAG (ops per task, bytes per edge). */
final class ZooCatalog {

    private ZooCatalog() {}

    static ModelCatalogEntry entry(String model) {
        ModelDag dag = ModelZoo.load(model);
        CatalogDag catalog = new CatalogDag(dag.name(),
                dag.tasks().stream().map(t -> new CatalogTask(t.id(), t.ops())).toList(),
                dag.edges().stream().map(e -> new CatalogEdge(e.from(), e.to(), e.bytes())).toList());
        return ModelCatalogEntry.of(model, catalog);
    }
}
