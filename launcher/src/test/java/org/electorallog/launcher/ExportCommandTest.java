package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Hex;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.export.ParquetFiles;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.testkit.Poll;
import org.electorallog.verifier.ExportVerifier;
import org.electorallog.verifier.LogEndpoint;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 63 against a real projector and PostgreSQL: {@code export --format parquet} writes a board
 * at its checkpoint as Parquet files (read here by DuckDB, as an analyst would) with a manifest;
 * {@code verify-export} verifies them and prints the counts they prove; a changed typed column, a
 * changed statement, a dropped row, rows of another checkpoint and a reordered file are each
 * refused with the reason (each tampered file given its new SHA-256 in the manifest, so the deeper
 * check is the one that refuses); a range of the board verifies with its range proof.
 */
class ExportCommandTest {
    private static final int VOTES = 260;
    private static final Path ROOT = Path.of("target/export-test");
    private static Path whole;
    private static Path older;
    private static Path range;
    private static String logKey;
    private static String board;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void exportABoard() throws Exception {
        deleteTree(ROOT);
        Files.createDirectories(ROOT);
        board = "export-" + Long.toString(System.nanoTime(), 36);
        ElectionStatements made = new ElectionStatements(board, 63);
        try (RunningLog log = new RunningLog("export")) {
            LogEndpoint api = new LogEndpoint(log.api.baseUrl(), null);
            for (var s : ElectionStatements.everyKind(board)) {
                if (s.getKind() != StatementKind.UNKNOWN
                        && s.getKind() != StatementKind.BOARD_SEALED
                        && s.getKind() != StatementKind.LOG_CONTINUATION
                        && s.getKind() != StatementKind.PERSONAL_DATA_ERASED
                        && s.getKind() != StatementKind.LOG_CHECKPOINT) {
                    log.producer.publish(s).get();
                }
            }
            Poll.until(Duration.ofMinutes(1), board + " has a checkpoint", () -> api.checkpoint(board) != null);
            long olderSize = size(api.checkpoint(board));
            for (int i = 0; i < VOTES; i++) {
                log.producer.publish(made.vote("voter-" + i, ElectionStatements.EPOCH_MILLIS + i * 60_000L));
            }
            log.producer.flush();
            long total = olderSize + VOTES;
            Poll.until(Duration.ofMinutes(1), board + " checkpointed at " + total, () -> {
                String note = api.checkpoint(board);
                return note != null && size(note) >= total;
            });
            logKey = log.settings.signer().verifierKey();
            DatabaseLogin db = log.stack.database();
            Map<String, String> env = new HashMap<>();
            env.put("ELECTORAL_LOG_JDBC_URL", db.jdbcUrl());
            env.put("ELECTORAL_LOG_DB_USER", db.user());
            env.put("ELECTORAL_LOG_DB_PASSWORD", db.password());
            whole = ROOT.resolve("whole");
            older = ROOT.resolve("older");
            range = ROOT.resolve("range");
            assertEquals(0, export(env, "--board", board, "--out", whole.toString(), "--rows-per-file", "100"));
            assertEquals(
                    0, export(env, "--board", board, "--out", older.toString(), "--at", String.valueOf(olderSize)));
            assertEquals(0, export(env, "--board", board, "--out", range.toString(), "--from", "3", "--to", "201"));
            assertEquals(
                    2, export(env, "--board", board, "--out", ROOT.resolve("x").toString(), "--at", "999999"));
        }
    }

    private static long size(String note) {
        return Long.parseLong(note.split("\n")[1]);
    }

    private static int export(Map<String, String> env, String... args) {
        ExportCommand c = new ExportCommand();
        c.environment = env;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        c.stdout = new PrintStream(o, true, StandardCharsets.UTF_8);
        c.stderr = c.stdout;
        int code = new CommandLine(c).execute(args);
        System.out.println("export " + String.join(" ", args) + ": " + o);
        return code;
    }

    private int verify(Path dir, String... more) {
        out.reset();
        err.reset();
        VerifyExportCommand c = new VerifyExportCommand();
        c.stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
        c.stderr = new PrintStream(err, true, StandardCharsets.UTF_8);
        String[] args = Stream.concat(Stream.of(dir.toString(), "--log-key", logKey), Stream.of(more))
                .toArray(String[]::new);
        return new CommandLine(c).execute(args);
    }

    @Test
    void anExportVerifiesAndProvesItsCounts() throws Exception {
        assertEquals(0, verify(whole), out + " " + err);
        String said = out.toString();
        assertTrue(said.contains("counts (proven: the whole board at that checkpoint)"), said);
        assertTrue(said.contains("CAST_VOTE") && said.contains("election-0"), said);
        // the analyst's view: DuckDB reads the files without this project, and its counts agree
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement s = db.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM read_parquet('" + whole.toAbsolutePath()
                        + "/*.parquet') WHERE kind = 'CAST_VOTE' AND election_id = 'election-0'")) {
            assertTrue(r.next());
            long votes = r.getLong(1);
            assertTrue(votes >= VOTES, "votes " + votes);
            assertTrue(said.matches("(?s).*election-0\\s+" + String.format("%,d", votes) + "\\n.*"), said);
        }
        // docs/analysts.md's turnout query in DuckDB gives the counts verify-export proves
        ExportVerifier.Result proven = ExportVerifier.verify(whole, List.of(NoteVerifier.parse(logKey)), List.of(), 0);
        assertTrue(proven.verified(), proven.problems().toString());
        assertEquals(proven.counts().castVotesByHour(), ParquetFiles.castVotesByHour(whole));
        assertEquals(0, verify(older), out + " " + err);
        assertEquals(0, verify(range), out + " " + err);
        assertTrue(out.toString().contains("proven for this range only"), out.toString());
        String stranger = NoteSigner.generate("x.electoral-log.local").verifierKey();
        out.reset();
        VerifyExportCommand c = new VerifyExportCommand();
        c.stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(1, new CommandLine(c).execute(whole.toString(), "--log-key", stranger));
        assertTrue(out.toString().contains("does not verify with the log key"), out.toString());
        assertEquals(2, verify(ROOT.resolve("none")), "no manifest");
        assertTrue(err.toString().contains("not an export directory"), err.toString());
    }

    @Test
    void aChangedColumnOrStatementIsRefused() throws Exception {
        Path column = copy(whole, "column");
        rewrite(
                column,
                "records-00001.parquet",
                "UPDATE t SET election_id = 'election-9' WHERE record_id = 150",
                "record_id");
        assertEquals(1, verify(column), out.toString());
        assertTrue(
                out.toString().contains("record 150's columns election_id differ from its canonical statement bytes"),
                out.toString());
        Path bytes = copy(whole, "bytes");
        rewrite(
                bytes,
                "records-00001.parquet",
                "UPDATE t SET statement = replace(statement::VARCHAR, 'election-0', 'election-9')::BLOB, "
                        + "election_id = 'election-9' WHERE record_id = 150",
                "record_id");
        assertEquals(1, verify(bytes), out.toString());
        assertTrue(out.toString().contains("are not the log's records"), out.toString());
    }

    @Test
    void aDroppedRowOrAReorderedFileIsRefused() throws Exception {
        Path dropped = copy(whole, "dropped");
        rewrite(dropped, "records-00000.parquet", "DELETE FROM t WHERE record_id = 42", "record_id");
        assertEquals(1, verify(dropped), out.toString());
        assertTrue(out.toString().contains("holds record 43 where record 42 was due"), out.toString());
        Path reordered = copy(whole, "reordered");
        // rows 5 and 6 trade places in the file, each keeping its own ID and bytes
        rewrite(
                reordered,
                "records-00000.parquet",
                "SELECT 1",
                "CASE record_id WHEN 5 THEN 6 WHEN 6 THEN 5 ELSE record_id END");
        assertEquals(1, verify(reordered), out.toString());
        assertTrue(out.toString().contains("holds record 6 where record 5 was due"), out.toString());
    }

    @Test
    void rowsOfAnotherCheckpointAreRefused() throws Exception {
        Path mixed = copy(whole, "mixed");
        String manifest = Files.readString(mixed.resolve("manifest.json"));
        String olderManifest = Files.readString(older.resolve("manifest.json"));
        // the whole export's files under the older checkpoint (and its size)
        String cp = field(olderManifest, "checkpoint");
        String size = olderManifest.replaceAll("(?s).*\"size\" : (\\d+).*", "$1");
        manifest = manifest.replace(field(manifest, "checkpoint"), cp)
                .replaceFirst("\"size\" : \\d+", "\"size\" : " + size)
                .replaceFirst("\"end\" : \\d+", "\"end\" : " + size);
        Files.writeString(mixed.resolve("manifest.json"), manifest);
        assertEquals(1, verify(mixed), out.toString());
        assertTrue(out.toString().contains("not at the range's end"), out.toString());
    }

    private static String field(String json, String name) {
        return json.replaceAll("(?s).*\"" + name + "\" : (\"(?:[^\"\\\\]|\\\\.)*\").*", "$1");
    }

    /** Rewrites one Parquet file with DuckDB ({@code t} is its rows) and gives the manifest its new SHA-256. */
    private static void rewrite(Path dir, String name, String change, String order) throws Exception {
        Path file = dir.resolve(name).toAbsolutePath();
        Path tmp = dir.resolve(name + ".new").toAbsolutePath();
        String before = Hex.encode(ParquetFiles.sha256(file));
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement s = db.createStatement()) {
            s.execute("SET preserve_insertion_order = true");
            s.execute("CREATE TABLE t AS SELECT * FROM read_parquet('" + file + "')");
            s.execute(change);
            s.execute("COPY (SELECT * FROM t ORDER BY " + order + ") TO '" + tmp + "' (FORMAT parquet)");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        String manifest = Files.readString(dir.resolve("manifest.json"));
        Files.writeString(
                dir.resolve("manifest.json"), manifest.replace(before, Hex.encode(ParquetFiles.sha256(file))));
    }

    private static Path copy(Path from, String name) throws Exception {
        Path to = ROOT.resolve(name);
        deleteTree(to);
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }

    private static void deleteTree(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
