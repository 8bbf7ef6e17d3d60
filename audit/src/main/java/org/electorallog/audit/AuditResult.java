package org.electorallog.audit;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of an audit of one board: clean, or findings per class (the first 100 of each kept,
 * every one counted).
 */
public final class AuditResult {
    public static final int KEPT_PER_KIND = 100;

    private final String board;
    private final Map<Finding.Kind, List<Finding>> kept = new EnumMap<>(Finding.Kind.class);
    private final Map<Finding.Kind, Long> counts = new EnumMap<>(Finding.Kind.class);
    private long size;
    private long recordsChecked;
    private long checkpointsChecked;
    private double seconds;

    AuditResult(String board) {
        this.board = board;
    }

    void add(Finding.Kind kind, Long recordId, String detail) {
        counts.merge(kind, 1L, Long::sum);
        List<Finding> list = kept.computeIfAbsent(kind, k -> new ArrayList<>());
        if (list.size() < KEPT_PER_KIND) {
            list.add(new Finding(kind, recordId, detail));
        }
    }

    void finish(long size, long records, long checkpoints, double seconds) {
        this.size = size;
        this.recordsChecked = records;
        this.checkpointsChecked = checkpoints;
        this.seconds = seconds;
    }

    public String board() {
        return board;
    }

    public boolean clean() {
        return counts.isEmpty();
    }

    public long size() {
        return size;
    }

    public long recordsChecked() {
        return recordsChecked;
    }

    public double seconds() {
        return seconds;
    }

    /** Findings of one class (the first 100). */
    public List<Finding> findings(Finding.Kind kind) {
        return kept.getOrDefault(kind, List.of());
    }

    public Map<Finding.Kind, Long> counts() {
        return Map.copyOf(counts);
    }

    /** The result as JSON (written next to the CLI run and served by the admin endpoint). */
    public String toJson() {
        StringBuilder sb = new StringBuilder();
        sb.append("{\"board\":")
                .append(q(board))
                .append(",\"verdict\":")
                .append(q(clean() ? "clean" : "findings"))
                .append(",\"size\":")
                .append(size)
                .append(",\"records_checked\":")
                .append(recordsChecked)
                .append(",\"checkpoints_checked\":")
                .append(checkpointsChecked)
                .append(",\"seconds\":")
                .append(String.format(Locale.ROOT, "%.3f", seconds))
                .append(",\"findings\":{");
        int i = 0;
        for (Map.Entry<Finding.Kind, List<Finding>> e : kept.entrySet()) {
            sb.append(i++ == 0 ? "" : ",")
                    .append(q(e.getKey().name()))
                    .append(":{\"count\":")
                    .append(counts.get(e.getKey()))
                    .append(",\"first\":[");
            int j = 0;
            for (Finding f : e.getValue()) {
                sb.append(j++ == 0 ? "" : ",")
                        .append("{\"record_id\":")
                        .append(f.recordId() == null ? "null" : f.recordId())
                        .append(",\"detail\":")
                        .append(q(f.detail()))
                        .append('}');
            }
            sb.append("]}");
        }
        return sb.append("}}").toString();
    }

    private static String q(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
