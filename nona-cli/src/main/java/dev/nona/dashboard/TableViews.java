package dev.nona.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nona.dashboard.DashboardSnapshot.ChoiceView;
import dev.nona.dashboard.DashboardSnapshot.SubgraphView;
import dev.nona.dashboard.DashboardSnapshot.TableModel;
import dev.nona.dashboard.DashboardSnapshot.TableView;
import dev.nona.placement.PlacementTable;
import dev.nona.topics.record.PlacementTableRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A {@code placement-tables} record as the page shows it. The record's {@code table} is the controller's table
 * (version, cause, rates, predictions) with the solved table as policy-model's {@link PlacementTable} JSON text in
 * {@code tableJson} (absent for the fallback table).
 */
final class TableViews {
    /** Most choices listed per subgraph (the most probable). */
    static final int MAX_CHOICES = 6;

    private TableViews() {}

    static TableView of(PlacementTableRecord record) {
        JsonNode t = record.tableTree();
        boolean fallback = t.path("fallback").asBoolean(false);
        List<TableModel> models = new ArrayList<>();
        JsonNode solved = t.path("tableJson");
        if (!fallback && solved.isTextual()) {
            for (PlacementTable.ModelPlacement m : PlacementTable.fromJson(solved.asText()).models()) {
                models.add(new TableModel(m.name(), finite(t.path("rates").path(m.name())),
                        finite(t.path("predictedJctSeconds").path(m.name())), subgraphs(m)));
            }
        } else {
            t.path("rates").fieldNames().forEachRemaining(name -> models.add(new TableModel(name,
                    finite(t.path("rates").path(name)), null, List.of())));
        }
        return new TableView(record.version(), record.createdAt(), t.path("cause").asText(""), fallback,
                finite(t.path("linkLoad")), finite(t.path("objective")), models);
    }

    private static List<SubgraphView> subgraphs(PlacementTable.ModelPlacement m) {
        List<SubgraphView> out = new ArrayList<>();
        for (PlacementTable.SubgraphPlacement s : m.subgraphs()) {
            List<ChoiceView> choices = s.choices().stream()
                    .sorted(Comparator.comparingDouble(PlacementTable.Choice::probability).reversed())
                    .limit(MAX_CHOICES)
                    .map(c -> new ChoiceView(c.parts(), c.probability()))
                    .toList();
            out.add(new SubgraphView(s.root(), s.sink(), choices, s.choices().size() - choices.size()));
        }
        return out;
    }

    /** The number, or null when it is missing or not finite (the JSON writes NaN as a string). */
    static Double finite(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return null;
        }
        double v = n.asDouble(Double.NaN);
        return Double.isFinite(v) ? v : null;
    }
}
