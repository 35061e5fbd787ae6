package dev.nona.controller.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * One gauge per model for a {@link ControllerMetric} of {@link ControllerMetric.Group#MODEL}: {@link #set}
 * registers the model's gauge the first time it sees the model and updates its value after that. The operator's
 * thread sets values; the metric reporter's thread reads them (hence the concurrent map). A model removed from
 * the catalog keeps its last value until the operator restarts.
 */
public final class ModelGauges {
    private final MetricGroup operatorGroup;
    private final ControllerMetric metric;
    private final Map<String, Double> values = new ConcurrentHashMap<>();

    public ModelGauges(MetricGroup operatorGroup, ControllerMetric metric) {
        if (metric.group() != ControllerMetric.Group.MODEL) {
            throw new IllegalArgumentException("metric " + metric + " is not per model");
        }
        this.operatorGroup = operatorGroup;
        this.metric = metric;
    }

    /** Sets the model's value (NaN: unknown), registering its gauge on first use. */
    public void set(String model, double value) {
        if (values.put(model, value) == null) {
            metric.groupIn(operatorGroup, model).gauge(metric.metricName(),
                    (Gauge<Double>) () -> values.getOrDefault(model, Double.NaN));
        }
    }

    /** The value last set for the model, or NaN. */
    public double get(String model) {
        return values.getOrDefault(model, Double.NaN);
    }
}
