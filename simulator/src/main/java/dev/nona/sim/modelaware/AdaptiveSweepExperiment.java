package dev.nona.sim.modelaware;

import dev.nona.sim.experiment.Experiment;
import dev.nona.sim.experiment.ExperimentContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.LongStream;

/**
 * How close {@code adaptive} comes to the best of the thesis's three policies beyond the three scenarios it was
 * built from: a grid over cold start $T_{CS}$, post-processing $T_P$, network latency $T_N$, a warming request or
 * none, and bursts of 2, 3 or 6 concurrent whole-machine requests (8 machines of 4 cores, $T_I$ = 1 s). Every
 * cell is the mean makespan over a few seeds. Our experiment; the thesis has no adaptive policy.
 */
public final class AdaptiveSweepExperiment implements Experiment {
    private static final String[] THESIS = {"colocation", "colocation-queuing", "registry"};

    /** The grid's axes. */
    public record Grid(List<Double> coldStart, List<Double> post, List<Double> network, List<Boolean> warm,
                       List<Integer> burst, int seeds) {
        public Grid {
            coldStart = List.copyOf(coldStart);
            post = List.copyOf(post);
            network = List.copyOf(network);
            warm = List.copyOf(warm);
            burst = List.copyOf(burst);
        }

        public static Grid defaults() {
            return new Grid(List.of(0.5, 1.0, 3.0, 10.0, 30.0), List.of(0.0, 1.0, 2.0, 5.0, 10.0),
                    List.of(0.001, 1.0, 2.0, 5.0, 10.0), List.of(false, true), List.of(2, 3, 6), 3);
        }
    }

    /** One cell: the best thesis policy, its makespan, and adaptive's. */
    public record Cell(double tCS, double tP, double tN, boolean warm, int burst, String best, double bestSeconds,
                       double adaptiveSeconds) {
        public double ratio() {
            return adaptiveSeconds / bestSeconds;
        }
    }

    public List<Cell> run(Grid grid) {
        List<Cell> cells = new ArrayList<>();
        for (double tCS : grid.coldStart()) {
            for (double tP : grid.post()) {
                for (double tN : grid.network()) {
                    for (boolean warm : grid.warm()) {
                        for (int burst : grid.burst()) {
                            cells.add(cell(tCS, tP, tN, warm, burst, grid.seeds()));
                        }
                    }
                }
            }
        }
        return cells;
    }

    private static Cell cell(double tCS, double tP, double tN, boolean warm, int burst, int seeds) {
        List<RequestGroup> groups = new ArrayList<>();
        if (warm) {
            groups.add(new RequestGroup("m", 1, 4, RequestGroup.Arrival.CONCURRENT));
        }
        groups.add(new RequestGroup("m", burst, 4, RequestGroup.Arrival.CONCURRENT));
        ThesisWorkload w = new ThesisWorkload(new ThesisCluster(8, 4, tN),
                List.of(new SimModel("m", 242, tCS, 1.0, 0, tP)), groups);
        String best = null;
        double bestSeconds = Double.MAX_VALUE;
        for (String p : THESIS) {
            double m = mean(w, p, seeds);
            if (m < bestSeconds) {
                best = p;
                bestSeconds = m;
            }
        }
        return new Cell(tCS, tP, tN, warm, burst, best, bestSeconds, mean(w, "adaptive", seeds));
    }

    private static double mean(ThesisWorkload w, String policy, int seeds) {
        return LongStream.rangeClosed(1, seeds)
                .mapToDouble(s -> new ModelAwareSimulator(w, policy, s).run().makespanSeconds()).average().orElseThrow();
    }

    /** Fraction of cells where adaptive is within {@code slack} (e.g. 0.05) of the best. */
    public static double withinShare(List<Cell> cells, double slack) {
        return cells.stream().filter(c -> c.ratio() <= 1 + slack).count() / (double) cells.size();
    }

    public static double worstRatio(List<Cell> cells) {
        return cells.stream().mapToDouble(Cell::ratio).max().orElse(Double.NaN);
    }

    @Override
    public String name() {
        return "adaptive-sweep";
    }

    @Override
    public String description() {
        return "adaptive vs the best of colocation, colocation-queuing and registry over a grid of T_CS, T_P, T_N and bursts";
    }

    @Override
    public void run(ExperimentContext ctx) {
        List<Cell> cells = writeTo(ctx.out());
        ctx.progress(String.format(Locale.ROOT, "adaptive-sweep: %d cells, within 5%% in %.1f%%, worst ratio %.3f",
                cells.size(), 100 * withinShare(cells, 0.05), worstRatio(cells)));
        try {
            ctx.md("%s", Files.readString(ctx.out().resolve("adaptive-sweep.md")).replaceFirst("# [^\\n]*\\n\\n", ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ctx.writeSummary("adaptive vs the thesis's policies");
    }

    /** Runs the default grid and writes {@code adaptive-sweep.csv} and {@code adaptive-sweep.md}. */
    public List<Cell> writeTo(Path out) {
        List<Cell> cells = run(Grid.defaults());
        StringBuilder csv = new StringBuilder("t_cs_s,t_p_s,t_n_s,warm,burst,best_policy,best_s,adaptive_s,ratio\n");
        for (Cell c : cells) {
            csv.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%d,%s,%.3f,%.3f,%.4f%n", c.tCS(), c.tP(), c.tN(),
                    c.warm(), c.burst(), c.best(), c.bestSeconds(), c.adaptiveSeconds(), c.ratio()));
        }
        StringBuilder md = new StringBuilder("# adaptive vs the best thesis policy, by makespan\n\n");
        md.append(String.format(Locale.ROOT, "%d cells (T_CS x T_P x T_N x warm x burst, 3 seeds each). adaptive within "
                        + "5%% of the best: %.1f%% of cells; within 10%%: %.1f%%; worst ratio %.3f.%n%n", cells.size(),
                100 * withinShare(cells, 0.05), 100 * withinShare(cells, 0.10), worstRatio(cells)));
        md.append("Cells where adaptive is more than 5% behind:\n\n| T_CS | T_P | T_N | warm | burst | best | best (s) | adaptive (s) | ratio |\n");
        md.append("| ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: |\n");
        cells.stream().filter(c -> c.ratio() > 1.05).forEach(c -> md.append(String.format(Locale.ROOT,
                "| %s | %s | %s | %s | %d | %s | %.2f | %.2f | %.3f |%n", c.tCS(), c.tP(), c.tN(), c.warm(), c.burst(),
                c.best(), c.bestSeconds(), c.adaptiveSeconds(), c.ratio())));
        try {
            Files.createDirectories(out);
            Files.writeString(out.resolve("adaptive-sweep.csv"), csv);
            Files.writeString(out.resolve("adaptive-sweep.md"), md);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the adaptive sweep to " + out, e);
        }
        return cells;
    }
}
