package org.electorallog.perf;

import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.electorallog.producer.ElectionStatements;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.StatementKinds;
import org.electorallog.store.RecordInserter;
import org.electorallog.store.RecordRow;

/**
 * {@code perf fill}: realistic election statements (producer {@link ElectionStatements}) through the
 * real producer, Kafka and projector into PostgreSQL until the boards hold {@code target} records,
 * resuming from their current size; then the same rows by binary COPY into {@code ceiling_records}
 * (a copy of the records table with the same indexes), which grows alongside, so the report can give
 * the pipeline's ratio to PostgreSQL's own ceiling at the same size.
 */
final class FillRun {
    private FillRun() {}

    static Map<String, Object> run(PerfEnvironment env, long target, int boards, boolean signed) throws Exception {
        env.projector(Duration.ofSeconds(1));
        Map<String, Long> before = new LinkedHashMap<>();
        String prefix = signed ? "perf-signed-" : "perf-";
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
        out.put("signed", signed);
        out.put("records_before", startTotal);
        if (toPublish == 0) {
            settle(env);
            out.put("note", "already at the target; nothing published (the table was vacuumed and analyzed)");
            out.put("records_after", env.total());
            return out;
        }
        System.err.printf(
                Locale.ROOT,
                "fill: %,d records now, publishing %,d to reach %,d on %d board(s)%n",
                startTotal,
                toPublish,
                target,
                boards);
        List<Map<String, Object>> samples = new ArrayList<>();
        long t0 = System.nanoTime();
        Thread publisher = new Thread(() -> publish(env, voters, signed), "perf-publisher");
        publisher.start();
        long expectedTotal = startTotal + toPublish;
        java.util.function.LongSupplier boardsSize = () -> env.sizes().entrySet().stream()
                .filter(e -> before.containsKey(e.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
        long lastSize = startTotal;
        long lastT = t0;
        while (true) {
            Thread.sleep(2000); // sampling interval of the throughput curve; the size is read, not assumed
            long size = boardsSize.getAsLong();
            long now = System.nanoTime();
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
            if (size >= expectedTotal) {
                break;
            }
            if (!publisher.isAlive()
                    && size == lastSize
                    && now - t0 > Duration.ofMinutes(60).toNanos()) {
                throw new IllegalStateException("the fill stopped at " + size + " records");
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        publisher.join();

        System.err.println();
        long after = boardsSize.getAsLong();
        out.put("records_after", after);
        out.put("published", toPublish);
        out.put("seconds", Latencies.round(seconds));
        out.put("records_per_second", Math.round(toPublish / seconds));
        out.put("samples", samples);
        if (signed) {
            out.put(
                    "signatures",
                    "every statement signed by its sender (Ed25519); the projector verified each (policy SENDER)");
        } else {
            out.put("ceiling", ceiling(env, voters));
            double ceilingRate = ((Number) ((Map<?, ?>) out.get("ceiling")).get("rows_per_second")).doubleValue();
            out.put("ratio_to_ceiling", Latencies.round(toPublish / seconds / ceilingRate));
        }
        settle(env);
        out.putAll(env.describe());
        return out;
    }

    private static void publish(PerfEnvironment env, Map<String, long[]> voters, boolean signed) {
        ElectoralLogProducer.Builder b = ElectoralLogProducer.builder(env.stack.kafkaBootstrap());
        org.electorallog.core.SigningKey key = signed ? org.electorallog.core.SigningKey.generate() : null;
        if (signed) {
            b.senderKey(key);
        }
        try (ElectoralLogProducer producer = b.build()) {
            // boards one after the other; within a board 20,000 voters interleaved (ElectionStatements.interleaved)
            voters.forEach((board, range) -> new ElectionStatements(board, seed(board, range[0]))
                    .interleaved(range[0], range[1], s -> {
                        if (key != null) {
                            // the statement names the key that signs it
                            s.setSenderPublicKey(java.nio.ByteBuffer.wrap(key.publicKey()));
                        }
                        producer.publish(s);
                    }));
            producer.flush();
        }
    }

    /**
     * VACUUM (ANALYZE) of the projection after a fill, untimed: what autovacuum does after a large
     * insert (statistics, visibility map), done now so that it does not run in the middle of the
     * probe's measurements.
     */
    private static void settle(PerfEnvironment env) throws Exception {
        try (Connection c = env.db.getConnection()) {
            c.setAutoCommit(true);
            c.createStatement().execute("VACUUM (ANALYZE) records");
            c.createStatement().execute("VACUUM (ANALYZE) tiles");
        }
    }

    /** A seed per board and starting voter: a resumed fill must not repeat earlier delivery IDs. */
    static long seed(String board, long firstVoter) {
        return board.hashCode() * 1_000_003L + firstVoter;
    }

    /**
     * Brings a ceiling_records made by an earlier build up to the records table of this one: the
     * columns and the indexes a later migration added to records (a perf stack is kept between runs).
     */
    private static void matchRecords(Connection c) throws java.sql.SQLException {
        List<String> changes = new ArrayList<>();
        try (ResultSet rs = c.createStatement()
                .executeQuery("SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
                        + "WHERE a.attrelid = 'records'::regclass AND a.attnum > 0 AND NOT a.attisdropped "
                        + "AND NOT EXISTS (SELECT 1 FROM pg_attribute b WHERE b.attrelid = 'ceiling_records'::regclass "
                        + "AND b.attname = a.attname AND NOT b.attisdropped) ORDER BY a.attnum")) {
            while (rs.next()) {
                changes.add("ALTER TABLE ceiling_records ADD COLUMN " + rs.getString(1) + " " + rs.getString(2));
            }
        }
        try (ResultSet rs = c.createStatement()
                .executeQuery("SELECT i.relname, pg_get_indexdef(x.indexrelid) FROM pg_index x "
                        + "JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = 'records'::regclass "
                        + "AND NOT x.indisprimary AND substring(pg_get_indexdef(x.indexrelid) from ' USING .*') NOT IN "
                        + "(SELECT substring(pg_get_indexdef(y.indexrelid) from ' USING .*') FROM pg_index y "
                        + "WHERE y.indrelid = 'ceiling_records'::regclass)")) {
            while (rs.next()) {
                // "CREATE [UNIQUE] INDEX records_x ON public.records USING ...", for ceiling_records
                changes.add(rs.getString(2)
                        .replace("INDEX " + rs.getString(1) + " ON", "INDEX ceiling_" + rs.getString(1) + " ON")
                        .replace(" ON public.records ", " ON public.ceiling_records "));
            }
        }
        for (String sql : changes) {
            c.createStatement().execute(sql);
        }
    }

    /**
     * The same rows (same generator, same seeds) by binary COPY into ceiling_records, 5,000 per
     * transaction as the projector writes them. Only the records table: no tiles, counters or offsets.
     */
    private static Map<String, Object> ceiling(PerfEnvironment env, Map<String, long[]> voters) throws Exception {
        try (Connection c = env.db.getConnection()) {
            c.setAutoCommit(true);
            c.createStatement().execute("CREATE TABLE IF NOT EXISTS ceiling_records (LIKE records INCLUDING ALL)");
            matchRecords(c);
        }
        long rows = 0;
        double copySeconds = 0;
        for (Map.Entry<String, long[]> e : voters.entrySet()) {
            ElectionStatements gen = new ElectionStatements(e.getKey(), seed(e.getKey(), e.getValue()[0]));
            long nextId;
            short boardId = (short) (32000 + Math.abs(e.getKey().hashCode() % 700));
            try (Connection c = env.db.getConnection();
                    ResultSet rs = c.createStatement()
                            .executeQuery("SELECT coalesce(max(id) + 1, 0) FROM ceiling_records WHERE board_id = "
                                    + boardId)) {
                nextId = rs.next() ? rs.getLong(1) : 0;
            }
            List<RecordRow> batch = new ArrayList<>(5000);
            long[] next = {nextId};
            long[] copied = {0};
            double[] spent = {0};
            java.util.function.Consumer<List<RecordRow>> copy = b -> {
                long t = System.nanoTime();
                try (Connection c = env.db.getConnection()) {
                    c.setAutoCommit(false);
                    RecordInserter.BINARY_COPY.insert(c, "ceiling_records", b);
                    c.commit();
                } catch (java.sql.SQLException ex) {
                    throw new IllegalStateException("COPY into ceiling_records failed: " + ex.getMessage(), ex);
                }
                spent[0] += (System.nanoTime() - t) / 1e9;
                copied[0] += b.size();
                b.clear();
            };
            gen.interleaved(e.getValue()[0], e.getValue()[1], s -> {
                long id = next[0]++;
                batch.add(new RecordRow(
                        boardId,
                        id,
                        System.currentTimeMillis(),
                        s.getStatementTimestamp(),
                        (short) StatementKinds.code(s.getKind().name()),
                        1,
                        new org.electorallog.store.IndexedFields(
                                str(s.getUserId()),
                                str(s.getUsername()),
                                str(s.getElectionId()),
                                str(s.getAreaId()),
                                str(s.getBallotId())),
                        s.getDeliveryId().toString(),
                        CanonicalStatement.encode(s),
                        1,
                        0,
                        id,
                        null,
                        null));
                if (batch.size() >= 5000) {
                    copy.accept(batch);
                }
            });
            if (!batch.isEmpty()) {
                copy.accept(batch);
            }
            rows += copied[0];
            copySeconds += spent[0];
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rows", rows);
        m.put("seconds", Latencies.round(copySeconds));
        m.put("rows_per_second", Math.round(rows / copySeconds));
        m.put(
                "method",
                "binary COPY of the same rows into ceiling_records (LIKE records INCLUDING ALL), 5,000 per transaction; "
                        + "time inside COPY and commit only (row generation excluded)");
        return m;
    }

    private static String str(CharSequence s) {
        return s == null ? null : s.toString();
    }

    static String bar(long done, long total) {
        int width = 30;
        int filled = total == 0 ? width : (int) Math.min(width, done * width / total);
        return "[" + "#".repeat(filled) + " ".repeat(width - filled) + "]";
    }
}
