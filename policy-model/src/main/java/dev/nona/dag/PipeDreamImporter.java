package dev.nona.dag;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jgrapht.Graph;
import org.jgrapht.graph.SimpleDirectedGraph;

/**
 * Reads the {@code graph.txt} written by PipeDream's profiler (github.com/msr-fiddle/pipedream) into a
 * {@link ModelDag}.
 *
 * <p>Format: one line per node, {@code <id> -- <description> -- <attributes>}, the attributes being
 * comma-separated {@code name=value} pairs: {@code forward_compute_time} and {@code backward_compute_time} (ms),
 * {@code activation_size} and {@code parameter_size} (bytes); then one tab-indented
 * line per edge, {@code <from> -- <to>}. {@code activation_size} may be a list {@code [a; b; ...]} for
 * operators with several outputs (GNMT's LSTMs); it is summed, since the file does not say which
 * output each consumer reads. Ops and bytes are converted per request by a {@link PipeDreamConversion}.
 * Every error names the line number. Stateless, thread-safe.
 */
public final class PipeDreamImporter {
    private static final String SEPARATOR = " -- ";

    private PipeDreamImporter() {
    }

    /** Reads {@code file} with the default conversion; the model is named after the file (without extension). */
    public static ModelDag read(Path file) throws IOException {
        return read(file, PipeDreamConversion.defaults());
    }

    /** Reads {@code file}; the model is named after the file (without extension). */
    public static ModelDag read(Path file, PipeDreamConversion conversion) throws IOException {
        String name = file.getFileName().toString().replaceFirst("\\.txt$", "");
        return parse(name, Files.readAllLines(file), conversion);
    }

    /** Parses the lines of a {@code graph.txt}. */
    public static ModelDag parse(String name, List<String> lines, PipeDreamConversion conversion) {
        Map<String, Node> nodes = new LinkedHashMap<>();
        List<RawEdge> rawEdges = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int number = i + 1;
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("\t") || line.startsWith(" ")) {
                rawEdges.add(edge(line.strip(), number));
            } else {
                Node node = node(line, number);
                if (nodes.putIfAbsent(node.id, node) != null) {
                    throw error(number, "duplicate node id '" + node.id + "' (first on line " + nodes.get(node.id).line + ")");
                }
            }
        }
        return toDag(name, nodes, rawEdges, conversion);
    }

    private static ModelDag toDag(String name, Map<String, Node> nodes, List<RawEdge> rawEdges,
            PipeDreamConversion conversion) {
        if (nodes.isEmpty()) {
            throw new DagValidationException("pipedream graph '" + name + "': no node lines (empty graph)");
        }
        List<Task> tasks = new ArrayList<>();
        for (Node node : nodes.values()) {
            tasks.add(new Task(node.id, conversion.ops(node.forwardMs)));
        }
        List<Edge> edges = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (RawEdge raw : rawEdges) {
            for (String end : List.of(raw.from, raw.to)) {
                if (!nodes.containsKey(end)) {
                    throw error(raw.line, "edge '" + raw.from + SEPARATOR + raw.to + "': '" + end + "' is not a node of the graph");
                }
            }
            if (raw.from.equals(raw.to)) {
                throw error(raw.line, "edge '" + raw.from + SEPARATOR + raw.to + "' is a self-loop");
            }
            if (!seen.add(raw.from + "\u0000" + raw.to)) {
                throw error(raw.line, "duplicate edge '" + raw.from + SEPARATOR + raw.to + "'");
            }
            edges.add(new Edge(raw.from, raw.to, conversion.bytes(nodes.get(raw.from).activationBytes)));
        }
        requireAcyclic(nodes.keySet(), rawEdges);
        ModelDag dag = new ModelDag(name, tasks, edges);
        DagValidator.validate(dag);
        return dag;
    }

    private static void requireAcyclic(Set<String> ids, List<RawEdge> rawEdges) {
        Graph<String, RawEdge> graph = new SimpleDirectedGraph<>(RawEdge.class);
        ids.forEach(graph::addVertex);
        rawEdges.forEach(e -> graph.addEdge(e.from, e.to, e));
        DagValidator.findCycle(graph).ifPresent(cycle -> {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i + 1 < cycle.size(); i++) {
                lines.add(String.valueOf(graph.getEdge(cycle.get(i), cycle.get(i + 1)).line));
            }
            throw new DagValidationException("lines " + String.join(", ", lines) + ": the edges form a cycle: "
                    + String.join(" -> ", cycle));
        });
    }

    private static RawEdge edge(String text, int line) {
        String[] ends = text.split(SEPARATOR, -1);
        if (ends.length != 2 || ends[0].isBlank() || ends[1].isBlank()) {
            throw error(line, "edge line '" + text + "' is not '<from> -- <to>'");
        }
        return new RawEdge(ends[0].strip(), ends[1].strip(), line);
    }

    private static Node node(String text, int line) {
        int first = text.indexOf(SEPARATOR);
        int last = text.lastIndexOf(SEPARATOR);
        if (first <= 0 || last == first) {
            throw error(line, "node line is not '<id> -- <description> -- <attributes>': '" + abbreviate(text) + "'");
        }
        String id = text.substring(0, first).strip();
        Map<String, String> attributes = attributes(text.substring(last + SEPARATOR.length()), line);
        double forwardMs = number(attributes, "forward_compute_time", line);
        double activation = activation(attributes, line);
        return new Node(id, forwardMs, activation, line);
    }

    private static Map<String, String> attributes(String text, int line) {
        Map<String, String> attributes = new HashMap<>();
        // split on ", " outside brackets: lists use "; " so a plain split is enough
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw error(line, "attribute '" + pair.strip() + "' is not '<name>=<value>'");
            }
            attributes.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
        }
        return attributes;
    }

    private static double number(Map<String, String> attributes, String name, int line) {
        String value = attributes.get(name);
        if (value == null) {
            throw error(line, "missing attribute " + name);
        }
        return checked(value, name, line);
    }

    private static double activation(Map<String, String> attributes, int line) {
        String value = attributes.get("activation_size");
        if (value == null) {
            throw error(line, "missing attribute activation_size");
        }
        if (value.startsWith("[") && value.endsWith("]")) {
            double sum = 0;
            for (String part : value.substring(1, value.length() - 1).split(";")) {
                sum += checked(part.strip(), "activation_size", line);
            }
            return sum;
        }
        return checked(value, "activation_size", line);
    }

    private static double checked(String value, String name, int line) {
        double x;
        try {
            x = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw error(line, name + " '" + value + "' is not a number");
        }
        if (!(x >= 0) || Double.isInfinite(x)) {
            throw error(line, name + " (" + value + ") must be finite and >= 0");
        }
        return x;
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }

    private static DagValidationException error(int line, String message) {
        return new DagValidationException("line " + line + ": " + message);
    }

    private record Node(String id, double forwardMs, double activationBytes, int line) {
    }

    private record RawEdge(String from, String to, int line) {
    }
}
