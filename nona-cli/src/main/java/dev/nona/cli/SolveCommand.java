package dev.nona.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nona.dag.EnumerationBound;
import dev.nona.modelaware.ColdStartCostTerm;
import dev.nona.modelaware.ModelRegistry;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.Problems;
import dev.nona.optimize.Solution;
import dev.nona.placement.PlacementTable;
import dev.nona.placement.PlacementTables;
import dev.nona.workload.Workload;
import dev.nona.workload.WorkloadReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona solve --workload FILE [--paper]}: solves Nona's optimisation for a workload file and prints the
 * placement probabilities as JSON (docs/optimizer.md). An infeasible load is not an error: it prints
 * {@code "feasible": false} with the smallest reachable link load, and non-finite numbers as {@code null}.
 */
@Command(name = "solve", mixinStandardHelpOptions = true,
        description = "Solve Nona's placement optimisation for a workload file; print the placement probabilities as JSON.")
final class SolveCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Option(names = "--workload", paramLabel = "FILE", required = true, description = "workload file (JSON, or YAML if .yaml/.yml)")
    Path workload;

    @Option(names = "--paper", description = "the paper's formulation exactly (no server queueing, no cold-start term); the same as --cost-model paper")
    boolean paper;

    @Option(names = "--cost-model", paramLabel = "NAME", defaultValue = "server-queueing",
            description = "formulation: server-queueing (server waits under a uniform mapping), paper, or controller-mapping "
                    + "(pooled M/G/N server wait and fork-join, the controller's mapping; what the controller solves). Default: ${DEFAULT-VALUE}")
    String costModel;

    @Mixin
    MaxTripletsOption triplets;

    @Option(names = "--table-out", paramLabel = "FILE", description = "also write the full placement table (JSON) to FILE")
    Path tableOut;

    @Override
    public Integer call() throws Exception {
        EnumerationBound bound = triplets.bound();
        if (tableOut != null) {
            OutputPaths.file("--table-out", tableOut);
        }
        CostModel model = costModel();
        Workload w = WorkloadReader.read(workload);
        NonaProblem problem = Problems.fromWorkload(w, model, bound);
        if (model.serverQueueing()) { // model-aware extension: expected cold starts of models with coldStart figures (docs/model-aware.md)
            problem = ColdStartCostTerm.apply(problem, ColdStartCostTerm.expectedSeconds(w, problem, ModelRegistry.DEFAULT_TARGET_ONGOING_REQUESTS));
        }
        Solution solution = NonaOptimizer.solve(problem);
        PlacementTable table = PlacementTables.from(problem, solution, 1, System.currentTimeMillis());
        if (tableOut != null) {
            Files.writeString(tableOut, table.toJson());
        }
        spec.commandLine().getOut().println(JSON.writeValueAsString(render(solution, table)));
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** {@code --cost-model}, or the paper's with {@code --paper}; throws naming the option for a bad or clashing value. */
    private CostModel costModel() {
        CostModel model;
        try {
            model = CostModel.named(costModel);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cost-model (" + costModel + ") must be " + CostModel.NAMES);
        }
        if (paper && model != CostModel.PAPER && spec.commandLine().getParseResult().hasMatchedOption("--cost-model")) {
            throw new IllegalArgumentException("--paper contradicts --cost-model " + costModel);
        }
        return paper ? CostModel.PAPER : model;
    }

    /** The contract's JSON; non-finite numbers become null. */
    static ObjectNode render(Solution s, PlacementTable table) {
        ObjectNode root = JSON.createObjectNode();
        number(root, "objective", s.objective());
        number(root, "linkLoad", s.rho());
        number(root, "linkWaitSeconds", s.phi());
        number(root, "solveMillis", s.solveMillis());
        root.put("feasible", s.feasible());
        root.put("diagnostic", s.diagnostic());
        root.put("formulation", s.costModel().controllerMapping() ? "controller-mapping" : s.costModel().serverQueueing() ? "default" : "paper");
        root.put("costModel", s.costModel().label());
        number(root, "serverUtilisation", s.serverUtilisation());
        number(root, "serverWaitSeconds", s.serverWaitSeconds());
        root.put("iterations", s.iterations());
        if (!s.unplaceable().isEmpty()) { // models no server's memory can run, even split (docs/optimizer.md)
            ArrayNode unplaceable = root.putArray("unplaceable");
            for (int i = 0; i < s.unplaceable().size(); i++) {
                unplaceable.addObject().put("name", s.unplaceable().get(i)).put("reason", s.unplaceableReasons().get(i));
            }
        }
        ArrayNode models = root.putArray("models");
        for (PlacementTable.ModelPlacement m : table.models()) {
            ObjectNode mo = models.addObject();
            mo.put("name", m.name());
            number(mo, "ratePerSecond", m.ratePerSecond());
            number(mo, "predictedJctSeconds", m.predictedJctSeconds());
            ArrayNode subs = mo.putArray("subgraphs");
            for (PlacementTable.SubgraphPlacement sp : m.subgraphs()) {
                ObjectNode so = subs.addObject();
                so.put("root", sp.root());
                so.put("sink", sp.sink());
                ArrayNode choices = so.putArray("choices");
                for (PlacementTable.Choice c : sp.choices()) {
                    ObjectNode co = choices.addObject();
                    ArrayNode parts = co.putArray("parts");
                    for (List<String> part : c.parts()) {
                        ArrayNode p = parts.addArray();
                        part.forEach(p::add);
                    }
                    co.put("rootPart", c.rootPart());
                    co.put("sinkPart", c.sinkPart());
                    co.put("probability", c.probability());
                }
            }
        }
        return root;
    }

    private static void number(ObjectNode node, String field, double v) {
        if (Double.isFinite(v)) {
            node.put(field, v);
        } else {
            node.putNull(field);
        }
    }
}
