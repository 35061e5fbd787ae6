package dev.nona.sim.experiment;

import dev.nona.optimize.CostModel;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.policy.PolicyRegistry;
import dev.nona.sim.policy.expert.ExpertSearch;
import dev.nona.sim.workload.SimWorkloads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * What an experiment runs with: the workload, where to write, how many jobs per run, the seed, the cost model
 * Nona's optimiser solves, where progress goes (stderr in the CLI), and how a load on an experiment's axis is read:
 * per server, $\sum_j \beta_j S_j / N$ (the default, the definition the issues and {@code simulate --load} use), or
 * over the whole cluster, $\sum_j \beta_j S_j$ (as the paper's Section IV-B writes it; {@code --cluster-load}).
 */
public final class ExperimentContext {
    private final SimWorkloads.Loaded loaded;
    private final Path out;
    private final long jobs;
    private final long seed;
    private final CostModel costModel;
    private final ExpertSearch.Settings expert;
    private final Consumer<String> progress;
    private final Scenario scenario;
    private final boolean clusterLoad;
    private String command;
    private int seeds = 5;
    private final StringBuilder summary = new StringBuilder();
    private final long startNanos = System.nanoTime();

    public ExperimentContext(SimWorkloads.Loaded loaded, Path out, long jobs, long seed, CostModel costModel,
                             ExpertSearch.Settings expert, Consumer<String> progress) {
        this(loaded, out, jobs, seed, costModel, expert, progress, false);
    }

    /** With {@code clusterLoad}: loads on the experiments' axes are $\sum_j \beta_j S_j$ over the cluster, not per server. */
    public ExperimentContext(SimWorkloads.Loaded loaded, Path out, long jobs, long seed, CostModel costModel,
                             ExpertSearch.Settings expert, Consumer<String> progress, boolean clusterLoad) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs (" + jobs + ") must be >= 1");
        }
        this.loaded = loaded;
        this.out = out;
        this.jobs = jobs;
        this.seed = seed;
        this.costModel = costModel;
        this.expert = expert;
        this.progress = progress;
        this.clusterLoad = clusterLoad;
        this.scenario = new Scenario(loaded, costModel, expert, progress, perServer(Scenario.REFERENCE_LOAD));
    }

    public SimWorkloads.Loaded loaded() { return loaded; }
    public SimWorkload workload() { return loaded.sim(); }
    public Path out() { return out; }
    public long jobs() { return jobs; }
    public long seed() { return seed; }
    public CostModel costModel() { return costModel; }
    public ExpertSearch.Settings expertSettings() { return expert; }
    public Scenario scenario() { return scenario; }

    /** A fresh scenario with another cost model (tables cached separately). */
    public Scenario scenario(CostModel model) {
        return new Scenario(loaded, model, expert, progress, perServer(Scenario.REFERENCE_LOAD));
    }

    /** The workload with its rates scaled to the load {@code load} of an experiment's axis (see the class comment). */
    public SimWorkload atLoad(double load) {
        return workload().withLoad(perServer(load));
    }

    /** The command line that regenerates this run, as {@link #writeSummary} states it (default: built from the settings). */
    public ExperimentContext command(String commandLine) {
        this.command = commandLine;
        return this;
    }

    /** How many seeds, from {@link #seed} on, an experiment that repeats over seeds runs ({@code --seeds}; default 5). */
    public int seeds() {
        return seeds;
    }

    public ExperimentContext seeds(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("seeds (" + count + ") must be >= 1");
        }
        this.seeds = count;
        return this;
    }

    /** True if the experiments' loads are read over the whole cluster ({@code --cluster-load}). */
    public boolean clusterLoad() {
        return clusterLoad;
    }

    private double perServer(double load) {
        return clusterLoad ? load / workload().cluster().servers() : load;
    }

    public List<String> policies() {
        return PolicyRegistry.experimentPolicies();
    }

    public void progress(String message) {
        progress.accept(message);
    }

    /** Runs and reports progress. */
    public SimResult run(String policy, SimWorkload w, SimWorkload solvedFor, String label) {
        SimResult r = scenario.run(policy, w, solvedFor, jobs, seed);
        progress(String.format(Locale.ROOT, "%s %s: mean JCT %.4g s (inference %.4g s), link %.2f, %.1fM events/s, %.1f s",
                label, policy, r.meanJctSeconds(), r.inference().mean(), r.linkUtilization(), r.eventsPerSecond() / 1e6, r.wallSeconds()));
        return r;
    }

    public SimResult run(String policy, SimWorkload w, String label) {
        return run(policy, w, w, label);
    }

    /** Appends markdown to the summary. */
    public ExperimentContext md(String format, Object... args) {
        summary.append(String.format(Locale.ROOT, format, args)).append('\n');
        return this;
    }

    /** Wall-clock seconds since this context was made (the experiment's run). */
    public double wallSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Writes {@code summary.md}: the title, the markdown appended so far, how to regenerate it and how long it took. */
    public void writeSummary(String title) {
        double wallSeconds = wallSeconds();
        String text = "# " + title + "\n\n" + summary
                + String.format(Locale.ROOT, "%nRegenerate: `%s` (%s). "
                        + "This run took %.0f s of wall-clock time on the shared 2-core machine.%n",
                command != null ? command : String.format(Locale.ROOT, "bin/nona experiment %s --out DIR --jobs %d --seed %d%s",
                        out.getFileName(), jobs, seed, clusterLoad ? " --cluster-load" : ""),
                "cost model: " + costModel.label() + (costModel.serverQueueing() && !costModel.controllerMapping()
                        ? "; controller policies: controller-mapping" : ""), wallSeconds);
        try {
            Files.createDirectories(out);
            Files.writeString(out.resolve("summary.md"), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
