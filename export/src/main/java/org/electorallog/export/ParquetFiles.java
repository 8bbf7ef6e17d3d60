package org.electorallog.export;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * An export's rows in Parquet files, written and read by DuckDB in this process (decision 138):
 * two tables of {@link ExportRow}s in memory filled in turn, each copied to a file once it holds
 * {@code rowsPerFile} rows (decision 151), so memory holds two files' rows at most; row groups of
 * 122,880 rows (DuckDB's own, which its reader splits across threads), zstd. Files are named {@code records-00000.parquet} on, in leaf order.
 * In the personal view each records file has an openings file of the same records beside it,
 * {@code openings-00000.parquet} on ({@link OpenedValue}: the values a role that may read them gets).
 */
public final class ParquetFiles {
    /** Rows a Parquet row group holds (DuckDB's default vector count per row group). */
    public static final int ROW_GROUP = 122_880;

    /** Rows a file holds by default. */
    public static final int ROWS_PER_FILE = 1_000_000;

    /** The columns, in file order, with their DuckDB types (docs/analysts.md describes each). */
    static final String COLUMNS = "record_id BIGINT, board VARCHAR, kind VARCHAR, statement_time TIMESTAMP, "
            + "delivery_id VARCHAR, sender_name VARCHAR, sender_public_key BLOB, user_id VARCHAR, username VARCHAR, "
            + "election_id VARCHAR, area_id VARCHAR, ballot_id VARCHAR, format_version INTEGER, body VARCHAR, "
            + "commitments VARCHAR, artifact BLOB, statement BLOB";

    /** The columns of an openings file, in file order. */
    static final String OPENING_COLUMNS = "record_id BIGINT, path VARCHAR, value VARCHAR, salt BLOB";

    /**
     * What the reader selects: the time as microseconds (no time zone can move it; a part under a
     * millisecond is read as {@link ExportRow#UNREADABLE_TIME}) and each text as
     * its UTF-8 bytes ({@code encode}), made a string on the Java side: DuckDB's JDBC driver makes a
     * string through JNI at about ten times the cost of the bytes (decision 152).
     */
    private static final String SELECT = "SELECT record_id, encode(board), encode(kind), epoch_us(statement_time), "
            + "encode(delivery_id), encode(sender_name), sender_public_key, encode(user_id), encode(username), "
            + "encode(election_id), encode(area_id), encode(ballot_id), format_version, encode(body), "
            + "encode(commitments), artifact, statement FROM read_parquet(?)";

    private ParquetFiles() {}

    private static Connection open(int threads) throws IOException {
        try {
            Properties p = new Properties();
            p.setProperty("threads", String.valueOf(threads));
            p.setProperty("jdbc_stream_results", "true"); // a file's rows in chunks, not all at once in memory
            Connection c = DriverManager.getConnection("jdbc:duckdb:", p);
            try (Statement s = c.createStatement()) {
                s.execute("SET preserve_insertion_order = true");
            }
            return c;
        } catch (SQLException e) {
            throw new IOException("DuckDB does not start: " + e.getMessage(), e);
        }
    }

    /**
     * Writes rows in leaf order into Parquet files in a directory. The caller's thread checks the
     * order and hands rows over in batches; a thread of the writer's own appends them to one of two
     * DuckDB staging tables, and a third thread copies each full table out as a file while the next
     * file's rows go into the other (decision 151), so making rows (the projection's read, {@link
     * ExportRow#of}), appending and DuckDB's Parquet encoding all run at once. At most {@link
     * #BATCHES_IN_FLIGHT} batches wait for the appending thread, and one full table for the copying one.
     */
    public static final class Writer implements AutoCloseable {
        /** Rows handed to the writing thread at once. */
        static final int BATCH = 1024;

        /** Batches that may wait for the writing thread; the caller blocks beyond them. */
        static final int BATCHES_IN_FLIGHT = 8;

        private static final List<Row> END = new ArrayList<>();

        private record Row(ExportRow row, List<OpenedValue> opened) {}

        private final Path dir;
        private final int rowsPerFile;
        private final Connection db;
        /** The copying thread's connection to the same database. */
        private final Connection copier;

        private final boolean withOpenings;
        private final List<ExportManifest.File> written = new ArrayList<>();
        private final List<ExportManifest.File> openingsWritten = new ArrayList<>();
        private final FileListener listener;
        private final BlockingQueue<List<Row>> batches = new ArrayBlockingQueue<>(BATCHES_IN_FLIGHT);
        private final Thread writing;
        private final Thread copying;
        /** Full staging tables (their index) for the copying thread, in file order; {@link #NO_MORE} ends it. */
        private final BlockingQueue<Staged> full = new ArrayBlockingQueue<>(1);
        /** Staging tables the copying thread has emptied, for the appending thread. */
        private final BlockingQueue<Integer> empty = new ArrayBlockingQueue<>(2);

        private volatile Throwable failed;
        private List<Row> batch = new ArrayList<>(BATCH);
        private long due = -1; // the caller's side: the next leaf
        // the appending thread's side
        private DuckDBAppender appender;
        private DuckDBAppender openingsAppender;
        private int table = -1; // the staging table being filled
        private long first = -1;
        private long next = -1;
        private int rows;
        private int files;

        /** A full staging table: which, the file it becomes, and its records [first, end). */
        private record Staged(int table, int file, long first, long end) {}

        private static final Staged NO_MORE = new Staged(-1, -1, -1, -1);

        /** A writer into {@code dir} (made when missing, refused when not empty), {@code rowsPerFile} rows a file. */
        public Writer(Path dir, int rowsPerFile) throws IOException {
            this(dir, rowsPerFile, false, f -> {});
        }

        /**
         * As {@link #Writer(Path, int)}; with {@code withOpenings} an openings file beside each
         * records file ({@link #write(ExportRow, List)}); {@code listener} is told each file once
         * it is complete, records file before its openings file, on the writer's copying thread.
         */
        public Writer(Path dir, int rowsPerFile, boolean withOpenings, FileListener listener) throws IOException {
            if (rowsPerFile < 1) {
                throw new IllegalArgumentException("a file holds at least one row, not " + rowsPerFile);
            }
            this.dir = Files.createDirectories(dir);
            try (var present = Files.list(dir)) {
                if (present.findAny().isPresent()) {
                    // an older export's files would be read with these by a glob over the directory
                    throw new IOException(dir + " is not empty: give an export a directory of its own");
                }
            }
            this.rowsPerFile = rowsPerFile;
            this.withOpenings = withOpenings;
            this.listener = listener;
            this.db = open(Math.max(1, Runtime.getRuntime().availableProcessors()));
            try (Statement s = db.createStatement()) {
                // the tables only stage a file's rows for COPY, which compresses them itself
                s.execute("SET force_compression = 'uncompressed'");
                for (int t = 0; t < 2; t++) {
                    s.execute("CREATE TABLE export_rows_" + t + " (" + COLUMNS + ")");
                    s.execute("CREATE TABLE export_openings_" + t + " (" + OPENING_COLUMNS + ")");
                    empty.add(t);
                }
                this.copier = ((DuckDBConnection) db).duplicate();
            } catch (SQLException e) {
                close(db, e);
                throw new IOException("DuckDB refused the export table: " + e.getMessage(), e);
            }
            this.writing = new Thread(this::writeBatches, "parquet-writer-" + dir.getFileName());
            writing.setDaemon(true);
            this.copying = new Thread(this::copyFiles, "parquet-copier-" + dir.getFileName());
            copying.setDaemon(true);
            writing.start();
            copying.start();
        }

        /**
         * Appends the row of the next leaf with the opened values of its record (the personal
         * view; empty when none are held), in path order.
         */
        public void write(ExportRow r, List<OpenedValue> opened) throws IOException {
            if (!withOpenings) {
                throw new IllegalStateException("this writer writes the public view: no opened values");
            }
            for (OpenedValue o : opened) {
                if (o.recordId() != r.recordId()) {
                    throw new IllegalArgumentException(
                            "an opened value of record " + o.recordId() + " given with record " + r.recordId());
                }
            }
            hand(new Row(r, List.copyOf(opened)));
        }

        /** Appends the row of the next leaf; rows must come in leaf order without a gap. */
        public void write(ExportRow r) throws IOException {
            hand(new Row(r, List.of()));
        }

        private void hand(Row row) throws IOException {
            long id = row.row().recordId();
            if (due >= 0 && id != due) {
                throw new IllegalArgumentException("rows come in leaf order: " + due + " was due, not " + id);
            }
            due = id + 1;
            batch.add(row);
            if (batch.size() == BATCH) {
                put(batch);
                batch = new ArrayList<>(BATCH);
            }
        }

        private void put(List<Row> b) throws IOException {
            try {
                while (!batches.offer(b, 100, TimeUnit.MILLISECONDS)) {
                    thrown();
                    if (!writing.isAlive()) {
                        throw new IOException("the Parquet writer stopped");
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while handing rows to the Parquet writer", e);
            }
            thrown();
        }

        private void thrown() throws IOException {
            Throwable t = failed;
            if (t instanceof IOException e) {
                throw new IOException(e.getMessage(), e);
            } else if (t != null) {
                throw new IOException("the Parquet writer failed: " + t.getMessage(), t);
            }
        }

        /** The appending thread: batches until {@link #END}, each row appended, a full table handed to the copier. */
        private void writeBatches() {
            try {
                for (List<Row> b = batches.take(); b != END; b = batches.take()) {
                    for (Row r : b) {
                        append(r);
                    }
                }
                flushFile();
                toCopier(NO_MORE);
            } catch (InterruptedException e) {
                fail(new IOException("the Parquet writer was stopped before its last file", e));
            } catch (IOException | RuntimeException e) {
                fail(e);
            }
        }

        /** The first failure of either thread; the caller's next put goes through and finds it. */
        private void fail(Throwable e) {
            synchronized (this) {
                if (failed == null) {
                    failed = e;
                }
            }
            batches.clear();
            full.clear();
            full.offer(NO_MORE); // the copier stops; it may be waiting for a table
            empty.offer(-1); // the appender stops; it may be waiting for an empty table
        }

        /** The copying thread: each full table copied into its file, in order, and given back empty. */
        private void copyFiles() {
            try {
                for (Staged t = full.take(); t.table() >= 0; t = full.take()) {
                    written.add(copy("export_rows_" + t.table(), String.format("records-%05d.parquet", t.file()), t));
                    if (withOpenings) {
                        openingsWritten.add(copy(
                                "export_openings_" + t.table(), String.format("openings-%05d.parquet", t.file()), t));
                    }
                    empty.put(t.table());
                }
            } catch (InterruptedException e) {
                fail(new IOException("the Parquet writer was stopped before its last file", e));
            } catch (IOException | RuntimeException e) {
                fail(e);
            }
        }

        private void append(Row row) throws IOException {
            ExportRow r = row.row();
            try {
                if (appender == null) {
                    table = emptyTable();
                    appender = ((DuckDBConnection) db)
                            .createAppender(DuckDBConnection.DEFAULT_SCHEMA, "export_rows_" + table);
                    first = r.recordId();
                }
                if (!row.opened().isEmpty()) {
                    if (openingsAppender == null) {
                        openingsAppender = ((DuckDBConnection) db)
                                .createAppender(DuckDBConnection.DEFAULT_SCHEMA, "export_openings_" + table);
                    }
                    for (OpenedValue o : row.opened()) {
                        openingsAppender
                                .beginRow()
                                .append(o.recordId())
                                .append(o.path())
                                .append(o.value())
                                .append(o.salt())
                                .endRow();
                    }
                }
                appender.beginRow()
                        .append(r.recordId())
                        .append(r.board())
                        .append(r.kind())
                        .appendEpochMicros(Math.multiplyExact(r.statementMillis(), 1000L));
                appender.append(r.deliveryId()).append(r.senderName());
                blob(r.senderPublicKey());
                text(r.userId());
                text(r.username());
                text(r.electionId());
                text(r.areaId());
                text(r.ballotId());
                if (r.formatVersion() == null) {
                    appender.appendNull();
                } else {
                    appender.append(r.formatVersion().intValue());
                }
                text(r.body());
                text(r.commitments());
                blob(r.artifact());
                blob(r.statement());
                appender.endRow();
            } catch (SQLException e) {
                throw new IOException("DuckDB refused row " + r.recordId() + ": " + e.getMessage(), e);
            }
            next = r.recordId() + 1;
            if (++rows == rowsPerFile) {
                flushFile();
            }
        }

        private void text(String v) throws SQLException {
            if (v == null) {
                appender.appendNull();
            } else {
                appender.append(v);
            }
        }

        private void blob(byte[] v) throws SQLException {
            if (v == null) {
                appender.appendNull();
            } else {
                appender.append(v);
            }
        }

        /** A staging table the copier has emptied, waiting for one while both are full. */
        private int emptyTable() throws IOException {
            try {
                Integer t;
                while ((t = empty.poll(100, TimeUnit.MILLISECONDS)) == null) {
                    if (!copying.isAlive()) {
                        break; // it ended without giving a table back (an Error): nothing will come
                    }
                }
                if (t == null || t < 0) {
                    throw new IOException("the Parquet writer's copying thread stopped");
                }
                return t;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("the Parquet writer was stopped before its last file", e);
            }
        }

        /** Closes the table being filled and hands it to the copier as the next file. */
        private void flushFile() throws IOException {
            if (rows == 0) {
                return;
            }
            try {
                appender.close();
                appender = null;
                if (openingsAppender != null) {
                    openingsAppender.close();
                    openingsAppender = null;
                }
            } catch (SQLException e) {
                throw new IOException("DuckDB could not close its appender: " + e.getMessage(), e);
            }
            try {
                toCopier(new Staged(table, files++, first, next));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("the Parquet writer was stopped before its last file", e);
            }
            rows = 0;
        }

        /** Hands the copier a full table (or the end), unless a failure has stopped it. */
        private void toCopier(Staged t) throws InterruptedException, IOException {
            while (!full.offer(t, 100, TimeUnit.MILLISECONDS)) {
                if (failed != null || !copying.isAlive()) {
                    throw new IOException("the Parquet writer's copying thread stopped");
                }
            }
        }

        /**
         * Copies staging table {@code table} into the file {@code name} (records [first, end) of
         * {@code t}) and empties it; the listener is told. zstd at level 1: a third less CPU than
         * DuckDB's default level 3 for 5 % more bytes (decision 151).
         */
        private ExportManifest.File copy(String table, String name, Staged t) throws IOException {
            Path file = dir.resolve(name);
            try (Statement s = copier.createStatement()) {
                s.execute("COPY " + table + " TO '" + quoted(file) + "' (FORMAT parquet, COMPRESSION zstd, "
                        + "COMPRESSION_LEVEL 1, ROW_GROUP_SIZE " + ROW_GROUP + ")");
                s.execute("DELETE FROM " + table);
            } catch (SQLException e) {
                throw new IOException("DuckDB could not write " + file + ": " + e.getMessage(), e);
            }
            ExportManifest.File f = new ExportManifest.File(name, sha256(file), t.first(), t.end());
            listener.written(file);
            return f;
        }

        /** The files written: records files in order, and in the personal view an openings file beside each. */
        public record Written(List<ExportManifest.File> records, List<ExportManifest.File> openings) {}

        /** Hands over the last rows, waits for the last file, and returns every file written, in order. */
        public Written finish() throws IOException {
            if (!batch.isEmpty()) {
                put(batch);
                batch = new ArrayList<>(BATCH);
            }
            put(END);
            try {
                writing.join();
                copying.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while the Parquet writer wrote its last file", e);
            }
            thrown();
            return new Written(List.copyOf(written), List.copyOf(openingsWritten));
        }

        @Override
        public void close() throws IOException {
            writing.interrupt();
            copying.interrupt();
            try {
                writing.join();
                copying.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                if (appender != null) {
                    appender.close();
                }
                if (openingsAppender != null) {
                    openingsAppender.close();
                }
                copier.close();
                db.close();
            } catch (SQLException e) {
                throw new IOException("DuckDB did not close: " + e.getMessage(), e);
            }
        }

        private static void close(Connection c, SQLException cause) {
            try {
                c.close();
            } catch (SQLException suppressed) {
                cause.addSuppressed(suppressed);
            }
        }
    }

    /** Told each file a writer completes, with its path, before the writer goes on. */
    @FunctionalInterface
    public interface FileListener {
        void written(Path file) throws IOException;
    }

    /** Told each row of a file, in the file's order. */
    @FunctionalInterface
    public interface RowSink {
        void accept(ExportRow row) throws IOException;
    }

    /**
     * Reads the rows of one Parquet file in its order (DuckDB keeps a scan's order:
     * preserve_insertion_order). A thread of its own reads the file and hands rows over in batches
     * while the caller's thread runs {@code sink}, so reading and checking run on two cores.
     */
    public static void read(Path file, RowSink sink) throws IOException {
        BlockingQueue<List<ExportRow>> batches = new ArrayBlockingQueue<>(Writer.BATCHES_IN_FLIGHT);
        List<ExportRow> end = new ArrayList<>();
        Throwable[] failed = {null};
        Thread reading = new Thread(
                () -> {
                    try {
                        readRows(file, batches);
                        batches.put(end);
                    } catch (IOException | RuntimeException e) {
                        failed[0] = e;
                        batches.clear(); // the rows after a failure do not count: room for the end
                        batches.offer(end);
                    } catch (InterruptedException e) {
                        // the caller stopped taking rows (its sink threw) and interrupted this thread
                    }
                },
                "parquet-reader-" + file.getFileName());
        reading.setDaemon(true);
        reading.start();
        try {
            for (List<ExportRow> b = batches.take(); b != end; b = batches.take()) {
                for (ExportRow r : b) {
                    sink.accept(r);
                }
            }
            reading.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + file.getFileName(), e);
        } finally {
            reading.interrupt();
        }
        if (failed[0] instanceof IOException e) {
            throw new IOException(e.getMessage(), e);
        } else if (failed[0] != null) {
            throw new IOException(file.getFileName() + " could not be read: " + failed[0].getMessage(), failed[0]);
        }
    }

    private static void readRows(Path file, BlockingQueue<List<ExportRow>> batches)
            throws IOException, InterruptedException {
        try (Connection db = open(1);
                PreparedStatement ps = db.prepareStatement(SELECT)) {
            ps.setString(1, file.toString());
            try (ResultSet rs = ps.executeQuery()) {
                List<ExportRow> batch = new ArrayList<>(Writer.BATCH);
                while (rs.next()) {
                    int f = rs.getInt(13);
                    Integer format = rs.wasNull() ? null : f;
                    batch.add(new ExportRow(
                            rs.getLong(1),
                            text(rs, 2),
                            text(rs, 3),
                            millis(rs.getLong(4)),
                            text(rs, 5),
                            text(rs, 6),
                            rs.getBytes(7),
                            text(rs, 8),
                            text(rs, 9),
                            text(rs, 10),
                            text(rs, 11),
                            text(rs, 12),
                            format,
                            text(rs, 14),
                            text(rs, 15),
                            rs.getBytes(16),
                            rs.getBytes(17)));
                    if (batch.size() == Writer.BATCH) {
                        batches.put(batch);
                        batch = new ArrayList<>(Writer.BATCH);
                    }
                }
                if (!batch.isEmpty()) {
                    batches.put(batch);
                }
            }
        } catch (SQLException e) {
            throw new IOException(file.getFileName() + " cannot be read as the export's Parquet: " + e.getMessage(), e);
        }
    }

    /** A statement time read as microseconds, in milliseconds; {@link ExportRow#UNREADABLE_TIME} when not whole. */
    private static long millis(long micros) {
        return micros % 1000 == 0 ? micros / 1000 : ExportRow.UNREADABLE_TIME;
    }

    /** Column {@code i} selected as {@code encode(text)}: the text again, or null. */
    private static String text(ResultSet rs, int i) throws SQLException {
        byte[] utf8 = rs.getBytes(i);
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }

    /**
     * The rows of one openings file in its order, pulled one at a time: a verifier walks them
     * beside the records file of the same records (memory holds one chunk of each).
     */
    public static final class OpeningsReader implements AutoCloseable {
        private final Path file;
        private final Connection db;
        private final PreparedStatement ps;
        private final ResultSet rs;

        /** Opens {@code file}; thrown when it is not an openings file. */
        public OpeningsReader(Path file) throws IOException {
            this.file = file;
            Connection c = open(1);
            try {
                this.db = c;
                this.ps =
                        c.prepareStatement("SELECT record_id, encode(path), encode(value), salt FROM read_parquet(?)");
                ps.setString(1, file.toString());
                this.rs = ps.executeQuery();
            } catch (SQLException e) {
                try {
                    c.close();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw new IOException(
                        file.getFileName() + " cannot be read as the export's openings: " + e.getMessage(), e);
            }
        }

        /** The next opened value, or null after the last. */
        public OpenedValue next() throws IOException {
            try {
                if (!rs.next()) {
                    return null;
                }
                return new OpenedValue(rs.getLong(1), text(rs, 2), rs.getBytes(4), text(rs, 3));
            } catch (SQLException e) {
                throw new IOException(
                        file.getFileName() + " cannot be read as the export's openings: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() throws IOException {
            try (Connection c = db;
                    PreparedStatement p = ps;
                    ResultSet r = rs) {
                // closed in reverse order by the try
            } catch (SQLException e) {
                throw new IOException("DuckDB did not close: " + e.getMessage(), e);
            }
        }
    }

    /**
     * docs/analysts.md's turnout query, run by DuckDB over every Parquet file of an export's
     * directory: cast votes per hour of their statement time (UTC), the hour as
     * {@code yyyy-MM-ddTHH:00Z}.
     */
    public static Map<String, Long> castVotesByHour(Path dir) throws IOException {
        String sql = "SELECT strftime(date_trunc('hour', statement_time), '%Y-%m-%dT%H:00Z') AS hour, count(*) "
                + "FROM read_parquet(?) WHERE kind = 'CAST_VOTE' GROUP BY hour ORDER BY hour";
        Map<String, Long> out = new TreeMap<>();
        try (Connection db = open(Math.max(1, Runtime.getRuntime().availableProcessors()));
                PreparedStatement ps = db.prepareStatement(sql)) {
            ps.setString(1, dir.resolve("records-*.parquet").toString());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new IOException("DuckDB could not count the votes of " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** SHA-256 of a file's bytes. */
    public static byte[] sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(OutputStream.nullOutputStream());
            return ((DigestInputStream) in).getMessageDigest().digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String quoted(Path file) {
        return file.toAbsolutePath().toString().replace("'", "''");
    }
}
