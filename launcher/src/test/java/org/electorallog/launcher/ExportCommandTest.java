package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Hex;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SigningKey;
import org.electorallog.export.ParquetFiles;
import org.electorallog.infra.SharedStack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SqlSealingKeys;
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
 * check is the one that refuses); a range of the board verifies with its range proof. The personal
 * view of a board in the committed form carries openings files whose values open the leaves'
 * commitments (a changed value is refused); the query API streams the export as a zip for the
 * analyst role, which verify-export checks as it is.
 */
class ExportCommandTest {
    private static final int VOTES = 260;
    private static final int COMMITTED_VOTES = 40;
    private static final String TOKEN = "export-admin-token-0123456789";
    private static final Path ROOT = Path.of("target/export-test");
    private static Path whole;
    private static Path older;
    private static Path range;
    private static String logKey;
    private static String board;
    private static Path personal;
    private static Path committedPublic;
    private static Path wholeZip;
    private static Path personalZip;
    private static Map<String, Integer> apiStatus = new HashMap<>();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void exportABoard() throws Exception {
        deleteTree(ROOT);
        Files.createDirectories(ROOT);
        board = "export-" + Long.toString(System.nanoTime(), 36);
        ElectionStatements made = new ElectionStatements(board, 63);
        String committedBoard = board + "-committed";
        DatabaseLogin db = SharedStack.get().database();
        try (RunningLog log = new RunningLog("export", TOKEN);
                HikariDataSource keys =
                        ProjectionDatabase.pool(db.jdbcUrl(), db.user(), db.password(), 2, "export-committed-keys");
                ElectoralLogProducer committed = ElectoralLogProducer.builder(log.stack.kafkaBootstrap())
                        .topic(log.topic)
                        .senderKey(SigningKey.generate())
                        .committedForm(new SqlSealingKeys(keys))
                        .build()) {
            LogEndpoint api = new LogEndpoint(log.api.baseUrl(), null);
            ElectionStatements committedVotes = new ElectionStatements(committedBoard, 64);
            for (int i = 0; i < COMMITTED_VOTES; i++) {
                var vote = committedVotes.vote("committed-voter-" + i, ElectionStatements.EPOCH_MILLIS + i);
                vote.setSenderPublicKey(ByteBuffer.allocate(0)); // the producer's key, which signs it
                committed.publish(vote);
            }
            committed.flush();
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
            Poll.until(Duration.ofMinutes(1), committedBoard + " checkpointed at " + COMMITTED_VOTES, () -> {
                String note = api.checkpoint(committedBoard);
                return note != null && size(note) == COMMITTED_VOTES;
            });
            logKey = log.settings.signer().verifierKey();
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
            personal = ROOT.resolve("personal");
            committedPublic = ROOT.resolve("committed-public");
            assertEquals(
                    0,
                    export(
                            env,
                            "--board",
                            committedBoard,
                            "--out",
                            personal.toString(),
                            "--view",
                            "personal",
                            "--rows-per-file",
                            "25"));
            assertEquals(0, export(env, "--board", committedBoard, "--out", committedPublic.toString()));
            // the same from the query API, for the analyst role (the admin token covers it)
            String exports = log.api.baseUrl() + "/admin/boards/";
            wholeZip = download(exports + board + "/export.parquet.zip", TOKEN, ROOT.resolve("whole.zip"));
            personalZip = download(
                    exports + committedBoard + "/export.parquet.zip?view=personal",
                    TOKEN,
                    ROOT.resolve("personal.zip"));
            apiStatus.put("no token", status(exports + board + "/export.parquet.zip", null));
            apiStatus.put("bad view", status(exports + board + "/export.parquet.zip?view=everything", TOKEN));
            apiStatus.put("no checkpoint there", status(exports + board + "/export.parquet.zip?at=999999", TOKEN));
            apiStatus.put("no board", status(exports + "no-such-board/export.parquet.zip", TOKEN));
        }
    }

    private static HttpResponse<Path> fetch(String url, String token, Path to) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofFile(to));
    }

    private static Path download(String url, String token, Path to) throws Exception {
        HttpResponse<Path> r = fetch(url, token, to);
        if (r.statusCode() != 200) {
            throw new AssertionError(url + ": " + r.statusCode() + " " + Files.readString(to));
        }
        assertEquals("application/zip", r.headers().firstValue("Content-Type").orElse(""));
        return to;
    }

    private static int status(String url, String token) throws Exception {
        Path body = ROOT.resolve("status-" + System.nanoTime());
        int code = fetch(url, token, body).statusCode();
        Files.delete(body);
        return code;
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
    void thePersonalViewsValuesOpenTheLeavesCommitments() throws Exception {
        assertEquals(0, verify(personal), out + " " + err);
        ExportVerifier.Result r = ExportVerifier.verify(personal, List.of(NoteVerifier.parse(logKey)), List.of(), 0);
        assertTrue(r.verified(), r.problems().toString());
        assertEquals(2, r.manifest().openings().size(), "an openings file beside each records file");
        assertTrue(
                out.toString().contains(String.format("personal view: %,d opened value(s)", r.opened())),
                out.toString());
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement s = db.createStatement()) {
            // every value the openings files hold was checked, and each vote's user ID is there to join on
            ResultSet all = s.executeQuery(
                    "SELECT count(*) FROM read_parquet('" + personal.toAbsolutePath() + "/openings-*.parquet')");
            assertTrue(all.next());
            assertEquals(r.opened(), all.getLong(1));
            ResultSet users = s.executeQuery("SELECT count(DISTINCT o.value) FROM read_parquet('"
                    + personal.toAbsolutePath() + "/records-*.parquet') v JOIN read_parquet('"
                    + personal.toAbsolutePath() + "/openings-*.parquet') o USING (record_id) "
                    + "WHERE v.kind = 'CAST_VOTE' AND o.path = 'user_id' AND v.user_id IS NULL");
            assertTrue(users.next());
            assertEquals(COMMITTED_VOTES, users.getLong(1), "the public columns hold no user ID; the openings do");
        }
        // the public view of the same board has no openings and no value
        assertEquals(0, verify(committedPublic), out + " " + err);
        try (Stream<Path> files = Files.list(committedPublic)) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("openings-")));
        }
        Path changed = copy(personal, "changed-value");
        rewrite(
                changed,
                "openings-00001.parquet",
                "UPDATE t SET value = 'someone-else' WHERE path = 'user_id' AND record_id = 30",
                "record_id, path");
        assertEquals(1, verify(changed), out.toString());
        assertTrue(
                out.toString().contains("value of user_id of record 30 does not open the statement's commitment"),
                out.toString());
        Path moved = copy(personal, "moved-value");
        // a value of record 30 given as record 5's, in a file of records [25, 40)
        rewrite(moved, "openings-00001.parquet", "UPDATE t SET record_id = 5 WHERE record_id = 30", "record_id, path");
        assertEquals(1, verify(moved), out.toString());
        assertTrue(
                out.toString().contains("openings file openings-00001.parquet opens record 5 after record 24's row"),
                out.toString());
    }

    @Test
    void theQueryApiStreamsAnExportThatVerifiesAsItCame() throws Exception {
        assertEquals(0, verify(wholeZip), out + " " + err);
        assertTrue(out.toString().contains("counts (proven: the whole board at that checkpoint)"), out.toString());
        assertEquals(0, verify(personalZip), out + " " + err);
        assertTrue(out.toString().contains("personal view: "), out.toString());
        assertEquals(Map.of("no token", 401, "bad view", 400, "no checkpoint there", 400, "no board", 404), apiStatus);
        // an archive whose manifest no longer names its files' bytes is refused as a directory would be
        Path cut = ROOT.resolve("cut.zip");
        byte[] bytes = Files.readAllBytes(wholeZip);
        Files.write(cut, Arrays.copyOf(bytes, bytes.length / 2));
        assertEquals(2, verify(cut), out + " " + err);
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
        // a time moved by less than the millisecond the statement counts in is a changed column too
        Path time = copy(whole, "time");
        rewrite(
                time,
                "records-00001.parquet",
                "UPDATE t SET statement_time = statement_time + INTERVAL 1 MICROSECOND WHERE record_id = 150",
                "record_id");
        assertEquals(1, verify(time), out.toString());
        assertTrue(
                out.toString()
                        .contains("record 150's columns statement_time differ from its canonical statement bytes"),
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
