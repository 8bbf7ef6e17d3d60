package org.electorallog.perf;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The PNG charts of docs/perf.md (JFreeChart, 900 by 500). */
final class Charts {
    private Charts() {}

    /** A line chart on linear axes. */
    static void line(Path file, String title, String x, String y, XYSeriesCollection data) throws IOException {
        save(file, chart(title, x, y, data));
    }

    /** A cumulative distribution of latencies in milliseconds. */
    static void cdf(Path file, String title, XYSeriesCollection data) throws IOException {
        save(file, chart(title, "milliseconds", "fraction at or below", data));
    }

    /** The series of a CDF: each latency (sorted here) against the fraction at or below it. */
    static XYSeries cdf(String name, List<Double> latenciesMs) {
        List<Double> sorted = latenciesMs.stream().sorted().toList();
        XYSeries s = new XYSeries(name);
        int n = sorted.size();
        for (int i = 0; i < n; i++) {
            s.add(sorted.get(i).doubleValue(), (i + 1) / (double) n);
        }
        return s;
    }

    private static JFreeChart chart(String title, String x, String y, XYSeriesCollection data) {
        JFreeChart chart =
                ChartFactory.createXYLineChart(title, x, y, data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            plot.getRenderer().setSeriesStroke(i, new BasicStroke(2f));
        }
        return chart;
    }

    private static void save(Path file, JFreeChart chart) throws IOException {
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 500);
    }
}
