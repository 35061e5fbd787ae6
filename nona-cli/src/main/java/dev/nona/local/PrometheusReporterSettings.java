package dev.nona.local;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Flink's Prometheus reporter ({@code flink-metrics-prometheus}, a dependency of this module, so on the classpath
 * of the MiniCluster {@code bin/nona run} and {@code bin/nona demo} start, never in the job jar), as Flink 2.x
 * configures it: the reporter's factory and the port its HTTP exporter serves {@code /metrics} on. The controller
 * job's metrics are listed in docs/operations.md ("Metrics").
 */
public final class PrometheusReporterSettings {
    /** The reporter's factory, by Flink's reporter-factory key for a reporter named {@code prom}. */
    public static final String FACTORY_CLASS_KEY = "metrics.reporter.prom.factory.class";
    /** The port (or range, e.g. {@code 9250-9260}) the reporter listens on. */
    public static final String PORT_KEY = "metrics.reporter.prom.port";
    public static final String FACTORY_CLASS = "org.apache.flink.metrics.prometheus.PrometheusReporterFactory";
    /** Flink's default port for the reporter, and {@code bin/nona run}'s. */
    public static final int DEFAULT_PORT = 9249;

    private PrometheusReporterSettings() {}

    /** The Flink configuration entries that serve the metrics on {@code port}, {@code 1..65535}. */
    public static Map<String, String> flinkEntries(int port) {
        requirePort("metrics port", port);
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put(FACTORY_CLASS_KEY, FACTORY_CLASS);
        entries.put(PORT_KEY, String.valueOf(port));
        return entries;
    }

    /**
     * {@code port} as the verbs' {@code --metrics-port} takes it, checked before they start anything: 0 (off) or a
     * port; otherwise an error naming the flag.
     */
    public static int requireFlag(int port) {
        if (port != 0) {
            requirePort("--metrics-port", port);
        }
        return port;
    }

    private static void requirePort(String name, int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException(name + " (" + port + ") must be in 1..65535" + (name.startsWith("--")
                    ? ", or 0 for none" : ""));
        }
    }

    /** As {@link #flinkEntries}, as controller settings: under {@code flink.}, which passes them to Flink. */
    public static Map<String, String> controllerSettings(int port) {
        Map<String, String> settings = new LinkedHashMap<>();
        flinkEntries(port).forEach((k, v) -> settings.put("flink." + k, v));
        return settings;
    }
}
