package dev.nona.controller.metrics;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The {@link ControllerMetric#DEAD_LETTERS_BY_REASON} counters: one per source topic and reason class, registered
 * on first use. A label must have few values, so a reason class becomes a short slug (lower case, runs of other
 * characters as one {@code _}, at most {@link #MAX_SLUG} characters), and after {@link #MAX_CLASSES} distinct
 * (topic, class) pairs the rest count as class {@code other}. Not thread safe: one operator thread uses it.
 */
public final class DeadLetterCounters {
    /** Distinct (topic, reason class) series at most; later classes count as {@code other}. */
    public static final int MAX_CLASSES = 50;
    static final int MAX_SLUG = 48;

    private final MetricGroup operatorGroup;
    private final Map<String, Counter> counters = new HashMap<>();

    public DeadLetterCounters(MetricGroup operatorGroup) {
        this.operatorGroup = operatorGroup;
    }

    /** Counts one dead letter from {@code topic} whose reason is of class {@code reasonClass}. */
    public void inc(String topic, String reasonClass) {
        String slug = slug(reasonClass);
        Counter c = counters.get(topic + '\n' + slug);
        if (c == null) {
            if (counters.size() >= MAX_CLASSES) {
                slug = "other";
                c = counters.get(topic + '\n' + slug);
            }
            if (c == null) {
                c = ControllerMetric.DEAD_LETTERS_BY_REASON.groupIn(operatorGroup, topic, slug)
                        .counter(ControllerMetric.DEAD_LETTERS_BY_REASON.metricName());
                counters.put(topic + '\n' + slug, c);
            }
        }
        c.inc();
    }

    /** {@code model '_' is not in the model catalog} becomes {@code model_is_not_in_the_model_catalog}. */
    static String slug(String reasonClass) {
        String s = reasonClass.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        s = s.length() > MAX_SLUG ? s.substring(0, MAX_SLUG).replaceAll("_+$", "") : s;
        return s.isEmpty() ? "unknown" : s;
    }
}
