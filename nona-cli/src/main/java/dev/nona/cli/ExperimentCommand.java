package dev.nona.cli;

import dev.nona.sim.experiment.Experiment;
import dev.nona.sim.experiment.ExperimentContext;
import dev.nona.sim.experiment.Experiments;
import dev.nona.sim.policy.expert.ExpertSearch;
import dev.nona.sim.workload.SimWorkloads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Parameters;

/**
 * {@code nona experiment NAME --out DIR}: regenerates one of the paper's evaluations (CSV, PNG plots, a markdown
 * summary) in DIR; progress on stderr; prints a JSON line naming what it wrote.
 */
@Command(name = "experiment", mixinStandardHelpOptions = true,
        description = "Regenerate an evaluation: fig3, headline, fig4, fig5, table3, robustness, model-vs-sim, md1, quality (the controller's quality check: nona-controller vs the best baseline and expert-jsq on 3 workloads, and vs the heterogeneous baselines and nona-controller-uniform on hetero and memory-bound (NONA_QUALITY_WORKLOADS selects), loads 0.1-0.9, over --seeds seeds); model-aware: thesis-tables, break-even, adaptive-sweep.")
final class ExperimentCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", description = "Experiment name.")
    String name;

    @Option(names = "--out", required = true, description = "Output folder.")
    Path out;

    /** The default workload, relative to the working directory: the repository's root. */
    static final Path DEFAULT_WORKLOAD = Path.of("examples/zoo.json");

    @Option(names = "--workload", defaultValue = "examples/zoo.json", description = "Workload file. Default: ${DEFAULT-VALUE}.")
    Path workload;

    @Option(names = "--jobs", defaultValue = "20000", description = "Measured inference jobs per simulation. Default: ${DEFAULT-VALUE}.")
    long jobs;

    @Mixin
    SimulationOptions options;

    @Option(names = "--cluster-load", description = "Read the experiments' loads as sum_j beta_j S_j over the whole cluster, "
            + "as the paper's Section IV-B writes it, instead of per server (divided by the number of servers).")
    boolean clusterLoad;

    @Option(names = "--seeds", defaultValue = "5", description = "Seeds (from --seed on) for experiments that repeat over "
            + "seeds (quality). Default: ${DEFAULT-VALUE}.")
    int seeds;

    @Option(names = "--expert-jobs", defaultValue = "6000", description = "Inference jobs per scoring simulation of the expert search. Default: ${DEFAULT-VALUE}.")
    long expertJobs;

    @Override
    public Integer call() {
        Experiment experiment = Experiments.get(name);
        if (workload.equals(DEFAULT_WORKLOAD) && !Files.isRegularFile(workload)) {
            throw new IllegalArgumentException("--workload was not given, and its default (" + workload + ") is not in "
                    + Path.of("").toAbsolutePath() + ": run from the repository's root, or give --workload FILE");
        }
        SimulationOptions.requireWorkloadFile(workload);
        SimulationOptions.requireJobs(jobs);
        OutputPaths.directory("--out", out);
        ExpertSearch.Settings defaults = ExpertSearch.Settings.defaults();
        ExpertSearch.Settings expert = new ExpertSearch.Settings(expertJobs, defaults.seed(), defaults.passes(), defaults.optionLimit());
        ExperimentContext ctx = new ExperimentContext(SimWorkloads.read(workload), out, jobs, options.seed,
                options.costModel(), expert, System.err::println, clusterLoad).seeds(seeds);
        ctx.command(String.format(Locale.ROOT, "bin/nona experiment %s --out DIR%s --jobs %d --seed %d%s%s%s%s", name,
                workload.equals(DEFAULT_WORKLOAD) ? "" : " --workload " + workload, jobs, options.seed,
                "server-queueing".equals(options.costModel) ? "" : " --cost-model " + options.costModel,
                clusterLoad ? " --cluster-load" : "", seeds == 5 ? "" : " --seeds " + seeds,
                expertJobs == defaults.jobs() ? "" : " --expert-jobs " + expertJobs));
        experiment.run(ctx);
        spec.commandLine().getOut().printf(Locale.ROOT, "{\"experiment\":\"%s\",\"out\":\"%s\",\"wallSeconds\":%.1f}%n",
                name, out.toString().replace("\\", "\\\\").replace("\"", "\\\""), ctx.wallSeconds());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
