package org.electorallog.perf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Latency samples in milliseconds and their summary: nearest-rank percentiles, never interpolated. */
final class Latencies {
    private final List<Double> ms = new ArrayList<>();

    synchronized void add(double millis) {
        ms.add(millis);
    }

    synchronized List<Double> sorted() {
        List<Double> s = new ArrayList<>(ms);
        Collections.sort(s);
        return s;
    }

    /** The nearest-rank percentile p (0-100) of sorted samples. */
    static double percentile(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    Map<String, Object> summary() {
        List<Double> s = sorted();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("n", s.size());
        m.put("median_ms", round(percentile(s, 50)));
        m.put("p95_ms", round(percentile(s, 95)));
        m.put("p99_ms", round(percentile(s, 99)));
        m.put("p99_9_ms", round(percentile(s, 99.9)));
        m.put("max_ms", round(s.isEmpty() ? Double.NaN : s.get(s.size() - 1)));
        return m;
    }

    static double round(double v) {
        return Double.isNaN(v) ? v : Math.round(v * 1000) / 1000.0;
    }
}
