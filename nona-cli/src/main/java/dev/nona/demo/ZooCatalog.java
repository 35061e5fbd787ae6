package dev.nona.demo;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.zoo.ModelZoo;

/** The {@code model-catalog} entry of a zoo model: its generated DAG (ops per task, bytes per edge). */
final class ZooCatalog {

    private ZooCatalog() {}

    static ModelCatalogEntry entry(String model) {
        return ModelCatalogEntry.of(model, CatalogDags.toCatalogDag(ModelZoo.load(model)));
    }
}
