package dev.nona.sim.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Rows of an experiment's output, written as CSV (numbers in plain locale-independent form). */
public final class CsvTable {
    private final List<String> header;
    private final List<List<Object>> rows = new ArrayList<>();

    public CsvTable(String... header) {
        this.header = List.of(header);
    }

    public void add(Object... row) {
        if (row.length != header.size()) {
            throw new IllegalArgumentException("BUG: row has " + row.length + " cells, header " + header.size());
        }
        rows.add(List.of(row));
    }

    public List<List<Object>> rows() {
        return rows;
    }

    public void write(Path file) {
        StringBuilder b = new StringBuilder(String.join(",", header)).append('\n');
        for (List<Object> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                b.append(i == 0 ? "" : ",").append(cell(row.get(i)));
            }
            b.append('\n');
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String cell(Object o) {
        if (o instanceof Double d) {
            return Double.isFinite(d) ? String.format(Locale.ROOT, "%.6g", d) : "";
        }
        return String.valueOf(o);
    }
}
