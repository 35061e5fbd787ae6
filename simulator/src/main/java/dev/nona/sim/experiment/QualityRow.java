package dev.nona.sim.experiment;

import dev.nona.sim.engine.SimResult;
import dev.nona.sim.report.CsvTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One line of {@code quality.csv}: one policy's run at one workload, load and seed. {@link #read} parses the file
 * back, so that {@link QualitySummary} computes its ratios from the numbers the CSV shows.
 *
 * @param workload           the workload's name ({@link QualityWorkload#name})
 * @param load               the load on the experiment's axis, read as the workload reads it
 * @param perServerLoad      the same load per server, $\sum_j \beta_j S_j / N$
 * @param seed               the run's seed (arrivals and the policy's own stream)
 * @param policy             the policy's registry name
 * @param meanJct            mean JCT of all measured jobs, seconds
 * @param p99Jct             99th percentile of their JCT, seconds
 * @param inferenceMeanJct   mean JCT of the measured inference jobs, seconds
 * @param linkUtilization    fraction of simulated time the link was busy
 * @param meanLinkWait       mean wait of a measured transfer in the link's queue, seconds
 * @param transfersPerJob    transfers of measured jobs per measured job (0 when every job is kept whole and no
 *                           background transfer arrives)
 * @param tableSplit         the largest probability with which the policy's table splits a subgraph over several
 *                           servers (NaN for a policy without a solved table)
 * @param arrivalsStopped    true if the run grew unstable and stopped arrivals (its JCTs are a draining system's,
 *                           and its later arrivals differ from the other policies')
 * @param wallSeconds        wall-clock seconds of the simulation (not of the table's solve)
 */
public record QualityRow(String workload, double load, double perServerLoad, long seed, String policy, double meanJct,
                         double p99Jct, double inferenceMeanJct, double linkUtilization, double meanLinkWait,
                         double transfersPerJob, double tableSplit, boolean arrivalsStopped, double wallSeconds) {
    static final String[] HEADER = {"workload", "load", "perServerLoad", "seed", "policy", "meanJctSeconds", "p99JctSeconds",
            "inferenceMeanJctSeconds", "linkUtilization", "meanLinkWaitSeconds", "transfersPerJob", "tableMaxSplitProbability",
            "arrivalsStopped", "wallSeconds"};

    static QualityRow of(String workload, double load, double perServerLoad, long seed, String policy, SimResult r,
                         double tableSplit) {
        return new QualityRow(workload, load, perServerLoad, seed, policy, r.meanJctSeconds(), r.p99JctSeconds(),
                r.inference().mean(), r.linkUtilization(), r.meanLinkWaitSeconds(), (double) r.transfers() / r.jobs(),
                tableSplit, r.arrivalsStopped(), r.wallSeconds());
    }

    static void write(List<QualityRow> rows, Path file) {
        CsvTable csv = new CsvTable(HEADER);
        for (QualityRow r : rows) {
            csv.add(r.workload, r.load, r.perServerLoad, r.seed, r.policy, r.meanJct, r.p99Jct, r.inferenceMeanJct,
                    r.linkUtilization, r.meanLinkWait, r.transfersPerJob, r.tableSplit, r.arrivalsStopped, r.wallSeconds);
        }
        csv.write(file);
    }

    /** Parses a file {@link #write} wrote; an empty cell is NaN. */
    static List<QualityRow> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (lines.isEmpty() || !lines.get(0).equals(String.join(",", HEADER))) {
            throw new IllegalArgumentException(file + ": not a quality CSV (header " + Arrays.toString(HEADER) + " expected)");
        }
        List<QualityRow> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",", -1);
            if (c.length != HEADER.length) {
                throw new IllegalArgumentException(file + ": line '" + line + "' has " + c.length + " cells, expected " + HEADER.length);
            }
            rows.add(new QualityRow(c[0], num(c[1]), num(c[2]), Long.parseLong(c[3]), c[4], num(c[5]), num(c[6]), num(c[7]),
                    num(c[8]), num(c[9]), num(c[10]), num(c[11]), Boolean.parseBoolean(c[12]), num(c[13])));
        }
        return rows;
    }

    private static double num(String cell) {
        return cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
    }
}
