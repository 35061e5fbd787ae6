package dev.nona.sim.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Line charts as PNG (XChart, headless): one series per policy or model. */
public final class Charts {
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final boolean logY;
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();

    public Charts(String title, String xLabel, String yLabel, boolean logX, boolean logY) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
        this.logY = logY;
    }

    /** Adds a point; non-finite or (on a log axis) non-positive values are skipped. */
    public void add(String name, double x, double y) {
        if (!Double.isFinite(x) || !Double.isFinite(y) || (logY && y <= 0) || (logX && x <= 0)) {
            return;
        }
        series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {x, y});
    }

    public void write(Path png) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        chart.getStyler().setXAxisLogarithmic(logX);
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setMarkerSize(5);
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            List<double[]> pts = e.getValue();
            double[] xs = pts.stream().mapToDouble(p -> p[0]).toArray();
            double[] ys = pts.stream().mapToDouble(p -> p[1]).toArray();
            chart.addSeries(e.getKey(), xs, ys).setMarker(pts.size() > 40 ? SeriesMarkers.NONE : SeriesMarkers.CIRCLE);
        }
        try {
            Files.createDirectories(png.toAbsolutePath().getParent());
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
