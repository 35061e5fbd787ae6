package dev.nona.controller.metrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scrape of a Prometheus endpoint in the text exposition format, parsed into samples: enough of the format for
 * what Flink's reporter writes ({@code name{label="value",...} number}, comments skipped).
 */
public record PrometheusText(List<Sample> samples) {
    private static final Pattern LINE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+\\d+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One sample: metric name, labels, value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    /** GETs {@code http://127.0.0.1:port/metrics} and parses it. */
    public static PrometheusText scrape(int port) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET /metrics on port " + port + ": HTTP " + response.statusCode());
        }
        return parse(response.body());
    }

    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException("not a Prometheus sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4).replace("+Inf", "Infinity")
                    .replace("-Inf", "-Infinity"))));
        }
        return new PrometheusText(samples);
    }

    /** The metric names, sorted. */
    public Set<String> names() {
        Set<String> names = new TreeSet<>();
        samples.forEach(s -> names.add(s.name()));
        return names;
    }

    /** The samples of {@code name} whose labels include {@code labels} (key, value, key, value, ...). */
    public List<Sample> select(String name, String... labels) {
        List<Sample> out = new ArrayList<>();
        for (Sample s : samples) {
            if (s.name().equals(name) && matches(s.labels(), labels)) {
                out.add(s);
            }
        }
        return out;
    }

    /** The sum of {@link #select}'s values (0 when none). */
    public double sum(String name, String... labels) {
        return select(name, labels).stream().mapToDouble(Sample::value).sum();
    }

    private static boolean matches(Map<String, String> have, String... want) {
        for (int i = 0; i < want.length; i += 2) {
            if (!want[i + 1].equals(have.get(want[i]))) {
                return false;
            }
        }
        return true;
    }
}
