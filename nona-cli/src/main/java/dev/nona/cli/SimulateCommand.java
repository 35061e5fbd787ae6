package dev.nona.cli;

import dev.nona.check.Checks;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.experiment.Scenario;
import dev.nona.sim.modelaware.ModelAwareSimulation;
import dev.nona.sim.modelaware.policy.ModelAwarePolicies;
import dev.nona.sim.policy.PolicyRegistry;
import dev.nona.sim.policy.expert.ExpertSearch;
import dev.nona.sim.report.JsonReport;
import dev.nona.sim.workload.SimWorkloads;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona simulate}: one discrete-event simulation of a workload under one placement policy; prints the
 * run's statistics as one JSON object.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = "Simulate a workload under a placement policy; prints JSON statistics.")
final class SimulateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--workload", required = true, description = "Workload file (JSON or YAML).")
    Path workload;

    @Option(names = "--policy", required = true, completionCandidates = PolicyNames.class,
            description = "One of: ${COMPLETION-CANDIDATES} (the simulator's registry, then the model-aware policies, for a "
                    + "model-aware workload such as examples/thesis).")
    String policy;

    /** The policy names from the registries, for the help text. */
    static final class PolicyNames extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        PolicyNames() {
            super(PolicyRegistry.names());
            ModelAwarePolicies.names().stream().filter(n -> !contains(n)).forEach(this::add);
        }
    }

    @Option(names = "--load", description = "Scale every rate so the compute load sum_j beta_j S_j / N equals this (link load for a background-communication-only workload).")
    Double load;

    @Option(names = "--jobs", defaultValue = "100000", description = "Measured inference jobs (background jobs when no model arrives). Default: ${DEFAULT-VALUE}.")
    long jobs;

    @Mixin
    SimulationOptions options;

    @Override
    public Integer call() {
        SimulationOptions.requireWorkloadFile(workload);
        if (ModelAwareSimulation.handles(workload)) {
            spec.commandLine().getOut().println(ModelAwareSimulation.runToJson(workload, policy, options.seed));
            return 0;
        }
        if (ModelAwarePolicies.contains(policy) && !PolicyRegistry.names().contains(policy)) {
            throw new IllegalArgumentException("--policy (" + policy + ") needs a model-aware workload (a file with a 'requests' script, e.g. examples/thesis/*.json)");
        }
        if (!PolicyRegistry.names().contains(policy)) {
            throw new IllegalArgumentException("--policy (" + policy + ") is unknown; known: " + String.join(", ", PolicyRegistry.names()));
        }
        if (load != null) {
            Checks.positive(load, "--load");
        }
        SimulationOptions.requireJobs(jobs);
        SimWorkloads.Loaded loaded = SimWorkloads.read(workload);
        SimWorkload w = load == null ? loaded.sim() : loaded.sim().withLoad(load);
        Scenario scenario = new Scenario(loaded, options.costModel(), ExpertSearch.Settings.defaults(), System.err::println);
        SimResult r = scenario.run(policy, w, jobs, options.seed);
        spec.commandLine().getOut().println(JsonReport.toJson(r));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
