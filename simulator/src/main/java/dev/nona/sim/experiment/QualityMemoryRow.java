package dev.nona.sim.experiment;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.report.CsvTable;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One line of {@code quality-memory.csv}: a {@link QualityRow} of a heterogeneous/memory workload with the model
 * caches' figures and each server class's utilisation (the old workloads' {@code quality.csv} keeps its columns).
 *
 * @param row              the run's common figures
 * @param coldStarts       cold starts over the whole run (warm-up included)
 * @param reloads          of those, the loads of a part its server had loaded before and evicted ({@link SimResult#reloads()})
 * @param evictions        cached units evicted over the run
 * @param memoryViolations placements refused because the server could not hold the part (0 for every policy)
 * @param jobs             the measured jobs
 * @param classUtilisation per server class, {@code name:utilisation}, separated by {@code ;}
 * @param jctLowerBound    the workload's {@link SimWorkload#inferenceJctLowerBoundSeconds()}: no policy's mean JCT is lower
 */
record QualityMemoryRow(QualityRow row, long coldStarts, long reloads, long evictions, long memoryViolations, long jobs,
                        String classUtilisation, double jctLowerBound) {
    static final String[] EXTRA = {"coldStarts", "evictions", "memoryViolations", "coldStartsPer1000Jobs", "classUtilisation",
            "inferenceJctLowerBoundSeconds", "reloads", "reloadsPer1000Jobs"};

    static QualityMemoryRow of(QualityRow row, SimResult r, SimWorkload w) {
        String classes = r.serverClasses().stream()
                .map(c -> String.format(Locale.ROOT, "%s:%.3f", c.name(), c.utilisation())).collect(Collectors.joining(";"));
        return new QualityMemoryRow(row, r.coldStarts(), r.reloads(), r.evictions(), r.memoryViolations(), r.jobs(), classes,
                w.inferenceJctLowerBoundSeconds());
    }

    /** Cold starts per 1,000 measured jobs (the cold starts of the whole run, warm-up included, over the measured jobs). */
    double coldStartsPer1000() {
        return 1000.0 * coldStarts / jobs;
    }

    /** Reloads per 1,000 measured jobs (the reloads of the whole run over the measured jobs, as {@link #coldStartsPer1000}). */
    double reloadsPer1000() {
        return 1000.0 * reloads / jobs;
    }

    static void write(List<QualityMemoryRow> rows, Path file) {
        CsvTable csv = new CsvTable(Stream.concat(Arrays.stream(QualityRow.HEADER), Arrays.stream(EXTRA)).toArray(String[]::new));
        for (QualityMemoryRow m : rows) {
            QualityRow r = m.row();
            csv.add(r.workload(), r.load(), r.perServerLoad(), r.seed(), r.policy(), r.meanJct(), r.p99Jct(), r.inferenceMeanJct(),
                    r.linkUtilization(), r.meanLinkWait(), r.transfersPerJob(), r.tableSplit(), r.arrivalsStopped(), r.wallSeconds(),
                    m.coldStarts(), m.evictions(), m.memoryViolations(), m.coldStartsPer1000(), m.classUtilisation(),
                    m.jctLowerBound(), m.reloads(), m.reloadsPer1000());
        }
        csv.write(file);
    }
}
