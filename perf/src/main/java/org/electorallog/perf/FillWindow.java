package org.electorallog.perf;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The figures of one window of {@code perf fill} ({@link FillRun}) that come from counters read at
 * its two edges: the COPY ceiling's mean, the projector's batches, PostgreSQL's WAL and checkpoints.
 */
final class FillWindow {
    private FillWindow() {}

    static double rowsPerSecond(Map<String, Object> ceiling) {
        Object r = ceiling.get("rows_per_second");
        return r == null ? Double.NaN : ((Number) r).doubleValue();
    }

    /** The mean of the ceilings at a window's two edges; the end's alone when the board had no row at the start. */
    static double meanCeiling(Map<String, Object> from, Map<String, Object> to) {
        double a = rowsPerSecond(from);
        double b = rowsPerSecond(to);
        return Double.isNaN(a) ? b : (a + b) / 2;
    }

    /**
     * The projector's batches committed in a window and their mean size in events: a batch is cut
     * when it is full or when it has waited its longest (the batch wait), so under load this says which.
     */
    static void putBatches(Map<String, Object> w, Map<String, Long> from, Map<String, Long> to) {
        long batches = to.get("batches") - from.get("batches");
        long records = to.get("records_written") - from.get("records_written");
        w.put("projector_batches", batches);
        w.put("projector_records_per_batch", batches == 0 ? null : Math.round((double) records / batches));
        // the batch writer's time inside batch transactions, and inside their commits (the WAL flush)
        w.put("projector_transaction_seconds", (to.get("batch_micros_total") - from.get("batch_micros_total")) / 1e6);
        w.put("projector_commit_seconds", (to.get("commit_micros_total") - from.get("commit_micros_total")) / 1e6);
    }

    /**
     * PostgreSQL's WAL over a window ({@code pg_stat_wal}): records, full-page images, bytes (and per
     * record projected), and writes forced by full WAL buffers. Full-page images follow each
     * checkpoint: the first change of a page after one logs the whole page.
     */
    static void putWal(Map<String, Object> w, Map<String, Long> from, Map<String, Long> to, long projected) {
        Map<String, Object> c = new LinkedHashMap<>();
        to.forEach((k, v) -> c.put(k, v - from.getOrDefault(k, 0L)));
        c.put(
                "bytes_per_record",
                projected == 0 ? null : Math.round((double) (to.get("bytes") - from.get("bytes")) / projected));
        w.put("postgresql_wal", c);
    }

    /**
     * PostgreSQL's checkpoint counters' growth over a window ({@code pg_stat_checkpointer}, PostgreSQL
     * 17 and later; buffers and times are added when a checkpoint ends): a checkpoint's writes and the
     * full-page images after it slow COPY, so a slow window can be told from a slow table. Left out on
     * a server without the view.
     */
    static void putCheckpoints(Map<String, Object> w, Map<String, Long> from, Map<String, Long> to) {
        if (from.isEmpty() || to.isEmpty()) {
            return;
        }
        Map<String, Object> c = new LinkedHashMap<>();
        to.forEach((k, v) -> c.put(k, v - from.getOrDefault(k, 0L)));
        w.put("postgresql_checkpoints", c);
    }
}
