package dev.nona.demo;

import dev.nona.controller.ControllerOptions;
import dev.nona.controller.catalog.CatalogDags;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.twin.TwinOptions;
import dev.nona.workload.Cluster;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.DagSources;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.Workload;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code bin/nona demo --workload F} runs instead of the standard scenario: the workload file's cluster (its
 * server classes, or {@code servers} × {@code opsPerSecond}; its link; its cold-start cost) as the executor twin's,
 * its models with their DAGs and {@code sizeBytes} as the catalog, their rates (constant: no shift) as the
 * publisher's, and the cold-start cost as the controller's {@code placement.cold-start.*}. The workload's background
 * load is not replayed (the twin runs only the requests' decisions).
 *
 * @param scenario           the publisher's scenario: the cluster's servers, the models' rates in both halves, eight
 *                           malformed records, the demo's seed
 * @param catalog            per model, the entry published to {@code model-catalog}
 * @param twin               the executor twin's cluster (caches by bytes when a class gives memory or a cold start
 *                           is given; no caches otherwise), 10 s timeout, the given faults
 * @param controllerSettings settings added to the demo controller's
 */
public record DemoWorkload(DemoScenario scenario, Map<String, ModelCatalogEntry> catalog, TwinOptions twin,
        Map<String, String> controllerSettings) {

    public DemoWorkload {
        catalog = Map.copyOf(catalog);
        controllerSettings = Map.copyOf(controllerSettings);
        if (!catalog.keySet().equals(scenario.before().keySet())) {
            throw new IllegalArgumentException("BUG: catalog " + catalog.keySet() + " is not the scenario's models "
                    + scenario.before().keySet());
        }
    }

    /**
     * The demo of {@code workload} for {@code duration}.
     *
     * @throws IllegalArgumentException when the workload has no models (a background-only workload)
     */
    public static DemoWorkload of(Workload workload, Duration duration, Map<String, Double> slow,
            Map<String, Double> silence) {
        if (workload.models().isEmpty()) {
            throw new IllegalArgumentException("--workload: the demo needs models; this workload has only background load");
        }
        Cluster cluster = workload.cluster();
        if (cluster.servers() > TwinOptions.MAX_SERVERS) {
            throw new IllegalArgumentException("--workload: cluster.servers (" + cluster.servers() + ") must be at most "
                    + TwinOptions.MAX_SERVERS + " for the demo, whose executor twin runs every server in this process");
        }
        Map<String, Double> rates = new LinkedHashMap<>();
        Map<String, ModelCatalogEntry> catalog = new LinkedHashMap<>();
        for (ModelSpec m : workload.models()) {
            rates.put(m.name(), m.ratePerSecond());
            catalog.put(m.name(), ModelCatalogEntry.of(m.name(),
                    CatalogDags.toCatalogDag(m.name(), DagSources.load(m.name(), m.dag())),
                    m.hasSize() ? m.sizeBytes() : null));
        }
        DemoScenario scenario = new DemoScenario(duration, cluster.servers(), rates, rates, 8, cluster.opsPerSecond(),
                cluster.linkBitsPerSecond(), DemoScenario.standard(duration).seed());
        TwinOptions twin = TwinOptions.ofClasses(cluster.classes(), cluster.coldStart(), cluster.linkBitsPerSecond(),
                10, slow, silence);
        Map<String, String> settings = new LinkedHashMap<>();
        ColdStartCost cold = cluster.coldStart();
        if (cold != null) {
            settings.put(ControllerOptions.PLACEMENT_COLD_START_FIXED_SECONDS.key(), String.valueOf(cold.fixedSeconds()));
            settings.put(ControllerOptions.PLACEMENT_COLD_START_LOAD_BYTES_PER_SECOND.key(),
                    String.valueOf(cold.loadBytesPerSecond()));
            settings.put(ControllerOptions.PLACEMENT_COLD_START_WEIGHT.key(), String.valueOf(cold.weight()));
            settings.put(ControllerOptions.PLACEMENT_COLD_START_RENT_HALF_LIFE.key(),
                    Math.round(cold.rentHalfLifeSeconds() * 1e9) + " ns");
        }
        return new DemoWorkload(scenario, catalog, twin, settings);
    }
}
