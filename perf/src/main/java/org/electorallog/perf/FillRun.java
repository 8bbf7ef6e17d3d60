package org.electorallog.perf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.electorallog.projector.Projector;
import org.electorallog.schemas.ElectionStatements;

/**
 * {@code perf fill}: realistic election statements (producer {@link ElectionStatements}) through the
 * real producer, Kafka and projector into PostgreSQL until the boards hold {@code target} records,
 * resuming from their current size.
 *
 * <p>The COPY ceiling is measured interleaved with the fill (issue 17): the fill runs in windows of
 * {@code ceilingEvery} records; at each window's edge the publisher waits, the projector drains, and
 * {@code ceilingRows} rows from the same generator are written by binary COPY into the records table
 * itself (the board being filled, the IDs that follow its end, so into its live partition; 5,000 rows
 * per COPY, each followed by its delivery keys' COPY into deliveries, as the projector writes them
 * since V15) in one transaction that is then rolled back. So the ceiling meets the records table's
 * own indexes at the very size the pipeline has just reached, and nothing of it stays visible. A
 * window's ratio is its pipeline rate over the mean of the ceilings at its two edges.
 */
final class FillRun {
    private FillRun() {}

    /** Rows a projector batch holds at most, and so rows per COPY of the ceiling. */
    static final int COPY_BATCH = 5000;

    static Map<String, Object> run(
            PerfEnvironment env, long target, int boards, FillForm form, long ceilingEvery, int ceilingRows)
            throws Exception {
        Projector projector = env.projector(Duration.ofSeconds(1));
        Map<String, Long> before = new LinkedHashMap<>();
        String prefix = form.boardPrefix;
        for (int b = 1; b <= boards; b++) {
            before.put(prefix + b, env.sizes().getOrDefault(prefix + b, 0L));
        }
        long startTotal = before.values().stream().mapToLong(Long::longValue).sum();
        long perBoard = target / boards / 5 * 5;
        Map<String, long[]> voters = new LinkedHashMap<>(); // board -> [first voter, end voter]
        for (Map.Entry<String, Long> e : before.entrySet()) {
            voters.put(e.getKey(), new long[] {(e.getValue() + 4) / 5, perBoard / 5});
        }
        long toPublish = voters.values().stream()
                .mapToLong(v -> Math.max(0, v[1] - v[0]) * 5)
                .sum();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("target", target);
        out.put("boards", boards);
        out.put("signed", form == FillForm.SIGNED || form == FillForm.SIGNED_COMMITTED);
        out.put("form", form.name().toLowerCase(Locale.ROOT));
        // decisions 75 and 81: statements the projector ran at its start, before the fill
        out.put("projector_warm_up_statements", projector.settings().warmUpStatements());
        out.put("projector_batch_max_records", projector.settings().batchMaxRecords());
        out.put("records_before", startTotal);
        if (toPublish == 0) {
            settle(env);
            out.put("note", "already at the target; nothing published (the table was vacuumed and analyzed)");
            out.put("records_after", env.total());
            return out;
        }
        boolean windows = form == FillForm.PLAIN && ceilingEvery > 0 && ceilingRows > 0;
        System.err.printf(
                Locale.ROOT,
                "fill: %,d records now, publishing %,d to reach %,d on %d board(s)%s%n",
                startTotal,
                toPublish,
                target,
                boards,
                windows
                        ? String.format(
                                Locale.ROOT,
                                "; a COPY ceiling of %,d rows every %,d records",
                                ceilingRows,
                                ceilingEvery)
                        : "");
        List<Map<String, Object>> samples = new ArrayList<>();
        List<Map<String, Object>> windowList = new ArrayList<>();
        FillPublisher.Gate gate = new FillPublisher.Gate();
        AtomicReference<String> filling =
                new AtomicReference<>(voters.keySet().iterator().next());
        long expectedTotal = startTotal + toPublish;
        long boundary =
                windows ? Math.min(expectedTotal, (startTotal / ceilingEvery + 1) * ceilingEvery) : expectedTotal;
        Map<String, Object> edge = null; // the ceiling at the current window's start
        if (windows) {
            edge = CopyCeiling.window(env, filling.get(), ceilingRows);
        }
        gate.allow(boundary - startTotal);
        // producers sign and commit on their own machines: done before the timed window
        long s0 = System.nanoTime();
        List<ProducerRecord<String, byte[]>> presigned = form.prepare(env, voters);
        if (presigned != null) {
            out.put("preparing_seconds_before_the_window", Latencies.round((System.nanoTime() - s0) / 1e9));
        }
        List<ProducerRecord<String, byte[]>> ready = presigned;
        long t0 = System.nanoTime();
        Map<String, Long> windowBatches = projector.metrics().snapshot();
        Map<String, Long> windowCheckpoints = env.checkpoints();
        Map<String, Long> windowWal = env.wal();
        AtomicReference<Throwable> publishFailure = new AtomicReference<>();
        Thread publisher = new Thread(
                () -> {
                    try {
                        if (ready != null) {
                            FillPublisher.publishSigned(env, ready, gate);
                        } else {
                            FillPublisher.publish(env, voters, gate, filling);
                        }
                    } catch (RuntimeException | Error e) {
                        publishFailure.set(e);
                    }
                },
                "perf-publisher");
        publisher.start();
        LongSupplier boardsSize = () -> env.sizes().entrySet().stream()
                .filter(e -> before.containsKey(e.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
        long lastSize = startTotal;
        long lastT = t0;
        long windowT = t0;
        long windowSize = startTotal;
        long lastProgress = t0;
        double fillSeconds = 0;
        while (true) {
            // the size is read every 100 ms (one indexed query) so that a window's end is seen promptly;
            // a throughput sample is kept every 2 s
            Thread.sleep(100);
            long size = boardsSize.getAsLong();
            long now = System.nanoTime();
            if (size > lastSize || size >= boundary) {
                lastProgress = now;
            }
            if (now - lastT >= 2_000_000_000L || size >= boundary) {
                double rate = (size - lastSize) / ((now - lastT) / 1e9);
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("seconds", Latencies.round((now - t0) / 1e9));
                s.put("records", size);
                s.put("records_per_second", Math.round(rate));
                samples.add(s);
                System.err.printf(
                        Locale.ROOT,
                        "\rfill: %s %,d / %,d records, %,.0f records/s   ",
                        bar(size - startTotal, toPublish),
                        size,
                        expectedTotal,
                        rate);
                lastSize = size;
                lastT = now;
            }
            if (size >= boundary) {
                double seconds = (now - windowT) / 1e9;
                fillSeconds += seconds;
                Map<String, Object> w = new LinkedHashMap<>();
                w.put("from", windowSize);
                w.put("to", size);
                w.put("seconds", Latencies.round(seconds));
                w.put("records_per_second", Math.round((size - windowSize) / seconds));
                Map<String, Long> batchesNow = projector.metrics().snapshot();
                FillWindow.putBatches(w, windowBatches, batchesNow);
                FillWindow.putCheckpoints(w, windowCheckpoints, env.checkpoints());
                FillWindow.putWal(w, windowWal, env.wal(), size - windowSize);
                windowBatches = batchesNow;
                if (windows) {
                    Map<String, Object> end = CopyCeiling.window(env, filling.get(), ceilingRows);
                    double ceiling = FillWindow.meanCeiling(edge, end);
                    w.put("ceiling_at_from", edge);
                    w.put("ceiling_at_to", end);
                    w.put("ceiling_rows_per_second", Math.round(ceiling));
                    w.put("ratio_to_ceiling", Latencies.round((size - windowSize) / seconds / ceiling));
                    edge = end;
                    System.err.printf(
                            Locale.ROOT,
                            "%nfill: window %,d -> %,d: %,.0f records/s; COPY ceiling %,.0f rows/s at %,d%n",
                            windowSize,
                            size,
                            (size - windowSize) / seconds,
                            FillWindow.rowsPerSecond(end),
                            size);
                }
                windowList.add(w);
                if (size >= expectedTotal) {
                    break;
                }
                boundary = Math.min(expectedTotal, boundary + ceilingEvery);
                windowT = System.nanoTime();
                windowBatches = projector.metrics().snapshot();
                windowCheckpoints = env.checkpoints();
                windowWal = env.wal();
                windowSize = size;
                lastT = windowT;
                lastSize = size;
                lastProgress = windowT;
                gate.allow(boundary - startTotal);
            }
            if (publishFailure.get() != null) {
                throw new IllegalStateException("the publisher failed at " + size + " records", publishFailure.get());
            }
            if (now - lastProgress > Duration.ofMinutes(10).toNanos()) {
                throw new IllegalStateException("the fill stopped at " + size + " records: no progress in 10 minutes");
            }
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        publisher.join();

        System.err.println();
        long after = boardsSize.getAsLong();
        out.put("records_after", after);
        out.put("published", toPublish);
        out.put("seconds", Latencies.round(fillSeconds));
        out.put("wall_seconds", Latencies.round(wall));
        out.put("records_per_second", Math.round(toPublish / fillSeconds));
        out.put("windows", windowList);
        out.put("samples", samples);
        if (form.note() != null) {
            out.put("form_note", form.note());
        } else if (windows) {
            out.put(
                    "ceiling_method",
                    "binary COPY of " + ceilingRows + " rows from the same generator into the records table itself "
                            + "(the filled board, the IDs that follow its end, so its live partition), " + COPY_BATCH
                            + " rows per COPY, each followed by the COPY of their delivery keys into deliveries "
                            + "as the projector writes them (V15), in one "
                            + "transaction rolled back at the end, at every window edge while the pipeline is idle; "
                            + "time inside COPY only (row generation and the rollback excluded; no commit flush, "
                            + "which favours the ceiling). seconds = time in fill windows (COPY windows excluded); "
                            + "wall_seconds includes them");
            double records = 0;
            double ceilingSeconds = 0;
            for (Map<String, Object> w : windowList) {
                double n = ((Number) w.get("to")).doubleValue() - ((Number) w.get("from")).doubleValue();
                records += n;
                ceilingSeconds += n / ((Number) w.get("ceiling_rows_per_second")).doubleValue();
            }
            double ceilingRate = records / ceilingSeconds;
            out.put("ceiling_rows_per_second", Math.round(ceilingRate));
            out.put("ratio_to_ceiling", Latencies.round(toPublish / fillSeconds / ceilingRate));
        }
        settle(env);
        out.putAll(env.describe());
        return out;
    }

    /**
     * VACUUM (ANALYZE) of the projection after a fill, untimed: what autovacuum does after a large
     * insert (statistics, visibility map), done now so that it does not run in the middle of the
     * probe's measurements.
     */
    private static void settle(PerfEnvironment env) throws Exception {
        env.db.server().vacuumAnalyze("records");
        env.db.server().vacuumAnalyze("tiles");
    }

    /** A seed per board and starting voter: a resumed fill must not repeat earlier delivery IDs. */
    static long seed(String board, long firstVoter) {
        return board.hashCode() * 1_000_003L + firstVoter;
    }

    static String bar(long done, long total) {
        int width = 30;
        int filled = total == 0 ? width : (int) Math.min(width, done * width / total);
        return "[" + "#".repeat(filled) + " ".repeat(width - filled) + "]";
    }
}
