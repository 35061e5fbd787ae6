package dev.nona.sim.experiment;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.workload.SimWorkloads;
import dev.nona.workload.DagSource;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.Workload;
import dev.nona.workload.WorkloadReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One workload of the {@link Quality} check: its name in the CSV, its file, and how a load on the experiment's
 * axis is read: per server, $\sum_j \beta_j S_j / N$, or over the whole cluster, $\sum_j \beta_j S_j$ (the
 * paper's wording, as {@code --cluster-load} reads it).
 *
 * <p>PipeDream graphs named by the file are looked for where the file says (relative to it); if the folder named
 * by {@value #SHARED_DAGS} is set, a graph found there ({@code <model>.txt} or {@code <model>/graph.txt}, the
 * model being the file name's stem) is used instead. A graph found nowhere is an error naming the path and
 * {@value #SHARED_DAGS}, raised before anything is simulated.
 *
 * @param name        the workload's name in the CSV and the summary
 * @param file        the workload file
 * @param clusterLoad true if loads are read over the whole cluster
 * @param memory      true for the heterogeneous/memory workloads: their own policies ({@link Quality#MEMORY_POLICIES}),
 *                    rows ({@code quality-memory.csv}) and goals ({@link QualityMemorySummary})
 */
public record QualityWorkload(String name, Path file, boolean clusterLoad, boolean memory) {
    /** The environment variable naming a folder of PipeDream graphs (as the tests read it). */
    public static final String SHARED_DAGS = "NONA_SHARED_DAGS";

    public QualityWorkload {
        Objects.requireNonNull(name, "quality workload name");
        Objects.requireNonNull(file, "quality workload file");
    }

    /** A workload of the original check (its policies, rows and goals). */
    public QualityWorkload(String name, Path file, boolean clusterLoad) {
        this(name, file, clusterLoad, false);
    }

    /** The policies run on this workload, in the CSV's order. */
    public List<String> policies() {
        return memory ? Quality.MEMORY_POLICIES : Quality.POLICIES;
    }

    /** The workload as read, with the PipeDream graphs resolved (see the class comment). */
    public SimWorkloads.Loaded load(String sharedDags) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("quality: workload '" + name + "': file " + file.toAbsolutePath()
                    + " not found (the experiment reads examples/ relative to the working directory: run it from the checkout's root)");
        }
        Workload w = WorkloadReader.read(file);
        List<ModelSpec> models = new ArrayList<>();
        for (ModelSpec m : w.models()) {
            models.add(m.dag() instanceof DagSource.PipeDream p
                    ? new ModelSpec(m.name(), new DagSource.PipeDream(pipedream(m.name(), p.path(), sharedDags), p.options()),
                            m.ratePerSecond(), m.coldStart(), m.sizeBytes())
                    : m);
        }
        return SimWorkloads.from(new Workload(w.cluster(), models, w.background()));
    }

    /** The workload at the axis load {@code load}: every rate scaled, the load read as this workload reads it. */
    public SimWorkload atLoad(SimWorkloads.Loaded loaded, double load) {
        SimWorkload w = loaded.sim();
        return w.withLoad(clusterLoad ? load / w.cluster().servers() : load);
    }

    private Path pipedream(String model, Path named, String sharedDags) {
        if (sharedDags != null && !sharedDags.isBlank()) {
            Path dir = Path.of(sharedDags);
            String stem = named.getFileName().toString().replaceFirst("\\.txt$", "");
            for (Path p : List.of(dir.resolve(stem + ".txt"), dir.resolve(stem).resolve("graph.txt"))) {
                if (Files.isRegularFile(p)) {
                    return p;
                }
            }
        }
        if (Files.isRegularFile(named)) {
            return named;
        }
        throw new IllegalStateException("quality: workload '" + name + "' (" + file + "), model '" + model
                + "': PipeDream graph " + named.toAbsolutePath().normalize() + " not found"
                + (sharedDags == null || sharedDags.isBlank() ? "" : " (nor in " + SHARED_DAGS + "=" + sharedDags + ")")
                + "; put PipeDream's graphs in shared/dags/pipedream beside the checkout (../shared/dags) or set "
                + SHARED_DAGS + " to a folder of <model>.txt or <model>/graph.txt files (see README, 'PipeDream profiles')");
    }
}
