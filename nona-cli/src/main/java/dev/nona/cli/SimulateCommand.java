package dev.nona.cli;

import dev.nona.check.Checks;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimConfig;
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
import java.util.Locale;
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

    @Option(names = "--max-in-flight", description = "Jobs in the system at once at which the run stops as unstable "
            + "(\"unstable\": true, the figures so far, a warning on stderr). Default: what fits in 512 MiB for the "
            + "workload's largest job.")
    Long maxInFlight;

    @Mixin
    SimulationOptions options;

    @Override
    public Integer call() {
        SimulationOptions.requireWorkloadFile(workload);
        if (maxInFlight != null && !(maxInFlight >= 1 && maxInFlight <= Integer.MAX_VALUE)) {
            throw new IllegalArgumentException("--max-in-flight (" + maxInFlight + ") must be >= 1 and <= " + Integer.MAX_VALUE);
        }
        if (ModelAwareSimulation.handles(workload)) {
            if (maxInFlight != null) {
                throw new IllegalArgumentException("--max-in-flight applies to DAG workloads, not to a model-aware workload (" + workload + ")");
            }
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
        String shortfall = loaded.wholeModelShortfall();
        if (shortfall != null) {
            spec.commandLine().getErr().println("nona simulate: warning: " + shortfall);
        }
        Scenario scenario = new Scenario(loaded, options.costModel(), ExpertSearch.Settings.defaults(), System.err::println);
        SimConfig config = SimConfig.of(jobs, options.seed)
                .withMaxJobsInFlight(maxInFlight == null ? SimConfig.AUTO_IN_FLIGHT : maxInFlight);
        SimResult r = scenario.run(policy, w, w, config);
        if (r.stoppedAtInFlightLimit()) {
            spec.commandLine().getErr().printf(Locale.ROOT, "nona simulate: warning: unstable: %d jobs in flight (the limit) after %.6g simulated "
                    + "seconds; stopped with the figures so far (%d measured jobs completed)%n", r.inFlightLimit(), r.simulatedSeconds(),
                    r.all().count());
        }
        spec.commandLine().getOut().println(JsonReport.toJson(r, w));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
