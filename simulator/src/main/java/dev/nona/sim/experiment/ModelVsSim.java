package dev.nona.sim.experiment;

import dev.nona.optimize.CostModel;
import dev.nona.optimize.Solution;
import dev.nona.sim.JobKind;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.policy.table.SimTable;
import dev.nona.sim.report.Charts;
import dev.nona.sim.report.CsvTable;
import java.util.Locale;

/**
 * Does the cost model tell the truth? For each load and each formulation (the paper's, and with server
 * queueing), Nona's table is solved, its predicted mean inference JCT $\sum_j \beta_j \tau_j / \sum_j \beta_j$
 * is compared with the simulated mean of the same table, and the predicted link load and wait with the simulated.
 * The controller's formulation ({@code controller-mapping}) is checked on the policy it models,
 * {@code nona-controller}: its own table placed by the controller's ledger mapping (goal: within 10% at every load).
 */
public final class ModelVsSim implements Experiment {

    @Override
    public String name() {
        return "model-vs-sim";
    }

    @Override
    public String description() {
        return "predicted (cost model) vs simulated mean JCT of Nona's table across loads";
    }

    @Override
    public void run(ExperimentContext ctx) {
        CsvTable csv = new CsvTable("costModel", "policy", "load", "predictedInferenceMeanJct", "simulatedInferenceMeanJct", "relativeError",
                "predictedRho", "simulatedLinkUtilization", "predictedPhi", "simulatedMeanLinkWait", "predictedServerWait");
        Charts chart = new Charts("Predicted vs simulated mean inference JCT (Nona's table)", "compute load", "mean JCT (s)", false, true);
        ctx.md("| cost model | policy | load | predicted (s) | simulated (s) | error | predicted rho | sim. link util. | predicted phi (s) | sim. link wait (s) | predicted server wait (s) |");
        ctx.md("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (CostModel model : new CostModel[] {CostModel.PAPER, CostModel.DEFAULT, CostModel.CONTROLLER_MAPPING}) {
            // the controller's model is checked on the controller's policy: its own table, placed by its own mapping
            boolean controller = model.controllerMapping();
            String name = model.label();
            String policy = controller ? "nona-controller" : "nona";
            Scenario scenario = ctx.scenario(model);
            double worst = 0;
            double worstAll = 0;
            for (double load : Fig3LoadSweep.LOADS) { // the loads of Figure 3
                SimWorkload w = ctx.atLoad(load);
                SimTable table = controller ? scenario.controllerTable(w) : scenario.nonaTable(w);
                Solution s = (controller ? scenario.controllerSolver() : scenario.nonaSolver()).lastSolution();
                double predicted = predictedInferenceMean(w, table);
                SimResult r = scenario.run(policy, w, ctx.jobs(), ctx.seed());
                ctx.progress(String.format(Locale.ROOT, "model-vs-sim %s (%s) load %.1f: predicted %.4g s, simulated %.4g s",
                        name, policy, load, predicted, r.inference().mean()));
                double err = predicted / r.inference().mean() - 1;
                if (load <= 0.8) {
                    worst = Math.max(worst, Math.abs(err));
                }
                worstAll = Math.max(worstAll, Math.abs(err));
                csv.add(name, policy, load, predicted, r.inference().mean(), err, s.rho(), r.linkUtilization(), s.phi(),
                        r.meanLinkWaitSeconds(), s.serverWaitSeconds());
                chart.add("predicted (" + name + ")", load, predicted);
                chart.add("simulated (" + policy + ", " + name + " table)", load, r.inference().mean());
                ctx.md("| %s | %s | %.1f | %.4g | %.4g | %+.1f%% | %.3f | %.3f | %.3g | %.3g | %.3g |", name, policy, load, predicted,
                        r.inference().mean(), 100 * err, s.rho(), r.linkUtilization(), s.phi(), r.meanLinkWaitSeconds(),
                        s.serverWaitSeconds());
            }
            if (controller) {
                ctx.md("| %s | %s | worst for loads 0.1-0.9 | | | %.1f%% (%s 10%%) | | | | | |", name, policy, 100 * worstAll,
                        worstAll <= 0.10 ? "within" : "NOT within");
            } else {
                ctx.md("| %s | %s | worst for load <= 0.8 | | | %.1f%% (%s 15%%) | | | | | |", name, policy, 100 * worst,
                        worst <= 0.15 ? "within" : "NOT within");
            }
        }
        csv.write(ctx.out().resolve("model-vs-sim.csv"));
        chart.write(ctx.out().resolve("model-vs-sim.png"));
        ctx.writeSummary("Cost model vs simulation");
    }

    static double predictedInferenceMean(SimWorkload w, SimTable table) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < w.classes().size(); i++) {
            SimJobClass c = w.classes().get(i);
            if (c.kind() == JobKind.INFERENCE) {
                num += c.ratePerSecond() * table.predictedJctSeconds().get(i);
                den += c.ratePerSecond();
            }
        }
        return num / den;
    }
}
