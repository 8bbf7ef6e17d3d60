package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SigningKey;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.statement.DataKeys;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.electorallog.statement.ProjectedOpenings;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SqlDataKeys;
import org.electorallog.store.SqlSealingKeys;
import org.electorallog.store.StoredOpenings;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/**
 * {@code erase} (issue 46, docs/personal-data.md "Erasure") on a real projection: a sealed board's
 * day is erased (its data key, its records' values and openings; the other day, the records in the
 * clear and every root untouched), a replay of the topic afterwards equals the projection
 * ({@code rebuild}: EQUAL), a user's values are erased, the audit finds a changed opening, and an
 * unsealed board, a missing day, a day that is not one and an unknown board are refused with exit 2.
 */
class EraseCommandTest {
    private static final long DAY_1 = 1_796_000_000_000L; // 2026-11-30 (UTC)
    private static final long DAY_2 = DAY_1 + 86_400_000L; // 2026-12-01

    final Stack stack = SharedStack.get();
    private final RebuildTest rebuilds = new RebuildTest();
    private String lastErr = "";

    @Test
    void aSealedBoardsDayIsErasedAndAReplayStillEqualsTheProjection() throws Exception {
        String topic = "erase-events-" + System.nanoTime();
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 1, (short) 1);
        EventsTopic.ensure(stack.kafkaBootstrap(), topic + ".dlq", 1, (short) 1);
        DatabaseLogin db = stack.database();
        String live = rebuilds.createDatabase("erase_live_" + System.nanoTime());
        // the key-encryption key: a file, as the rebuild command reads it from its configuration
        Path kek = java.nio.file.Files.createTempDirectory(
                        java.nio.file.Files.createDirectories(Path.of("target/tmp")), "kek-")
                .resolve("key-encryption-key");
        KeyEncryptionKeys.create(kek);
        ProjectorSettings settings = ProjectorSettings.defaults(
                        stack.kafkaBootstrap(),
                        db.atUrl(live),
                        Path.of("target/stack/erase-live"),
                        NoteSigner.generate("erase-test.electoral-log.local"))
                .withTopics(topic, topic + ".dlq")
                .withApplicationId("live-" + topic)
                .withBatch(500, Duration.ofMillis(50))
                .withOriginPrefix("erase-test/")
                .withKeyEncryption(KeyEncryptionKeys.load(List.of(kek)));
        String board = "erase-board";
        try (HikariDataSource ds = ProjectionDatabase.pool(live, db.user(), db.password(), 2, "erase-live")) {
            Migrations.apply(ds);
            try (Projector p = Projector.start(settings);
                    ElectoralLogProducer committed = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                            .topic(topic)
                            .senderKey(SigningKey.generate())
                            .committedForm(new SqlSealingKeys(ds))
                            .build();
                    // signed with the log's key: its seal is taken from no other (decision 130)
                    ElectoralLogProducer plain = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                            .topic(topic)
                            .senderKey(settings.signer().statementKey())
                            .build()) {
                ElectionStatements votes = new ElectionStatements(board, 21);
                // format 1, values in the statement: first, since once the board has a record in the
                // committed form it refuses one (issue 61, COMMITTED_FORM_REQUIRED)
                plain.publish(votes.vote("old-style", DAY_1)).get();
                for (String u : List.of("ann", "ben", "cat")) {
                    committed.publish(unsigned(votes.vote(u, DAY_1))).get();
                }
                for (String u : List.of("dan", "eve")) {
                    committed.publish(unsigned(votes.vote(u, DAY_2))).get();
                }
                committed
                        .publish(unsigned(new ElectionStatements("erase-open", 22).vote("fay", DAY_1)))
                        .get();
                plain.publish(SealCommand.statement(board, "back-office", null, DAY_2 + 1))
                        .get();
                Map<Integer, Long> end = RebuildCommand.endOffsets(stack.kafkaBootstrap(), topic);
                Poll.until(
                        Duration.ofMinutes(2),
                        "the projection to catch up",
                        () -> RebuildTest.projected(live, db, topic, end));
            }
            byte[] rootBefore = root(ds, board);

            Map<String, String> env = new HashMap<>();
            env.put("ELECTORAL_LOG_KAFKA_BOOTSTRAP", stack.kafkaBootstrap());
            env.put("ELECTORAL_LOG_TOPIC", topic);
            env.put("ELECTORAL_LOG_DEAD_LETTER_TOPIC", topic + ".dlq");
            env.put("ELECTORAL_LOG_JDBC_URL", live);
            env.put("ELECTORAL_LOG_DB_USER", db.user());
            env.put("ELECTORAL_LOG_DB_PASSWORD", db.password());
            env.put("ELECTORAL_LOG_SIGNING_KEY", settings.signer().signerKey());
            env.put("ELECTORAL_LOG_ORIGIN_PREFIX", "erase-test/");
            env.put("ELECTORAL_LOG_LOG_KEYS", settings.signer().verifierKey());
            env.put("ELECTORAL_LOG_KEY_ENCRYPTION_KEY_FILES", kek.toString());

            // a projector runs while the commands do: each waits until its erasure's statement is projected
            try (Projector running = Projector.start(settings)) {
                erase(2, env, "--board", "erase-open", "--from", "2026-11-30", "--to", "2026-11-30");
                assertTrue(lastErr.contains("is not sealed"), lastErr);
                erase(2, env, "--board", board, "--from", "2026-11-30");
                assertTrue(lastErr.contains("--to is missing"), lastErr);
                erase(2, env, "--board", board, "--from", "2026-11-31", "--to", "2026-12-01");
                assertTrue(lastErr.contains("is not a day"), lastErr);
                erase(2, env, "--board", board, "--user", "ann", "--from", "2026-11-30", "--to", "2026-11-30");
                assertTrue(lastErr.contains("not both"), lastErr);
                erase(2, env, "--board", "no-such-board", "--user", "ann");
                assertTrue(lastErr.contains("there is no board"), lastErr);

                String erased = erase(0, env, "--board", board, "--from", "2026-11-30", "--to", "2026-11-30");
                // issue 61 item 7: a second run finds the first run's account under the days' delivery ID
                String again2 = erase(0, env, "--board", board, "--from", "2026-11-30", "--to", "2026-11-30");
                assertTrue(again2.contains("0 data key(s) []"), again2);
                assertTrue(
                        again2.contains("already accounts for it: record 0 holds an earlier run's statement"), again2);
                assertTrue(erased.contains("1 data key(s) [" + board + "/2026-11-30]"), erased);
                assertTrue(erased.contains("the values and openings of 3 record(s)"), erased);
                assertTrue(
                        erased.contains("1 record(s) of the days 2026-11-30 to 2026-11-30 hold personal values"),
                        erased);
                assertEquals(
                        DataKeys.State.ERASED,
                        new SqlDataKeys(ds, settings.keyEncryption())
                                .find(board + "/2026-11-30")
                                .state());
                assertEquals(Map.of("dan", 1L, "eve", 1L, "old-style", 0L), valuesLeft(ds, board));
                assertTrue(java.util.Arrays.equals(rootBefore, root(ds, board)), "the root did not change");

                assertTrue(erased.contains("PERSONAL_DATA_ERASED statement on board erasures acknowledged"), erased);
                // the command waited until the projector projected the erasure's account: what was erased, no value
                assertTrue(erased.contains("projected as record 0 of board erasures"), erased);
                Map<String, Object> account = erasureAccount(ds);
                assertEquals("PERSONAL_DATA_ERASED", account.get("kind"));
                assertEquals(
                        "{\"erased_board\":\"erase-board\",\"scope\":\"days\",\"from\":\"2026-11-30\",\"to\":\"2026-11-30\","
                                + "\"data_keys\":[\"erase-board/2026-11-30\"],\"records\":3,\"in_the_clear\":1}",
                        account.get("artifact"));
                assertEquals("erase:erase-board:2026-11-30:2026-11-30", account.get("delivery_id"));

                // a replay of the topic into a new database, with the key store copied, equals the erased projection
                String equal = rebuilds.rebuild(
                        0, env, "--into", rebuilds.createDatabase("erase_replay_" + System.nanoTime()));
                assertTrue(equal.contains("copied 3 data keys"), equal);
                assertTrue(equal.contains("rebuild: EQUAL"), equal);

                String user = erase(0, env, "--board", board, "--user", "dan");
                assertTrue(user.contains("the values and openings of 1 record(s)"), user);
                assertTrue(
                        user.contains(
                                "PERSONAL_DATA_ERASED statement on board erasures acknowledged (delivery ID erase:"),
                        user);
                assertFalse(
                        user.substring(user.indexOf("PERSONAL_DATA_ERASED")).contains("dan"),
                        "never the user: " + user);
                assertTrue(user.contains("no replay or rebuild brings these values back"), user);
                assertTrue(user.contains("readable to the holder of their day's data key"), user);
                assertEquals(Map.of("eve", 1L, "old-style", 0L), valuesLeft(ds, board));

                // issue 66: a rebuild after the user's erasure does not bring the user's values back
                // (the command returned once the live projection held its account: the two compare)
                assertTrue(user.contains("projected as record 1 of board erasures"), user);
                String again = rebuilds.createDatabase("erase_user_replay_" + System.nanoTime());
                String rebuilt = rebuilds.rebuild(0, env, "--into", again);
                assertTrue(rebuilt.contains("rebuild: EQUAL"), rebuilt);
                try (HikariDataSource replayed =
                        ProjectionDatabase.pool(again, db.user(), db.password(), 1, "erase-replay")) {
                    assertEquals(
                            Map.of("eve", 1L, "old-style", 0L),
                            valuesLeft(replayed, board),
                            "dan's values stay erased");
                }
            }

            // the audit checks every stored opening against its record's commitment
            Path auditFile = Path.of("target/audit-erase-board.json");
            String clean = rebuilds.audit(0, env, "--board", board, "--out", auditFile.toString());
            assertTrue(clean.contains(": CLEAN;"), clean);
            String eve = "(SELECT id FROM records r JOIN boards b USING (board_id) WHERE b.name = '" + board
                    + "' AND r.user_id = 'eve')";
            try (Connection c = ds.getConnection();
                    PreparedStatement read = c.prepareStatement(
                            "SELECT board_id, id FROM records WHERE openings IS NOT NULL AND board_id = (SELECT board_id "
                                    + "FROM boards WHERE name = '" + board + "') AND id = " + eve);
                    ResultSet rs = read.executeQuery()) {
                assertTrue(rs.next());
                short boardId = rs.getShort(1);
                long id = rs.getLong(2);
                List<Opening> changed = new ArrayList<>();
                for (Opening o : StoredOpenings.of(c, boardId, id)) {
                    changed.add(o.path().equals("body.ip") ? new Opening(o.path(), o.salt(), "10.6.6.6") : o);
                }
                try (PreparedStatement write = c.prepareStatement(
                        "UPDATE records SET openings = ?, username = 'someone-else' WHERE board_id = ? AND id = ?")) {
                    write.setBytes(1, ProjectedOpenings.encode(changed));
                    write.setShort(2, boardId);
                    write.setLong(3, id);
                    assertEquals(1, write.executeUpdate());
                }
            }
            String findings = rebuilds.audit(1, env, "--board", board, "--out", auditFile.toString());
            String report = java.nio.file.Files.readString(auditFile);
            assertTrue(report.contains("OPENING_MISMATCH"), findings + report);
            assertTrue(report.contains("body.ip does not open"), report);
            assertTrue(report.contains("username does not open"), "a changed column is found too: " + report);

            // and a stored row that is not openings at all is a finding, not a failed audit
            try (Connection c = ds.getConnection()) {
                assertEquals(
                        1,
                        c.createStatement()
                                .executeUpdate(
                                        "UPDATE records SET openings = '\\x0102' WHERE board_id = (SELECT board_id FROM boards "
                                                + "WHERE name = '" + board + "') AND id = " + eve));
            }
            String undecodable = rebuilds.audit(1, env, "--board", board, "--out", auditFile.toString());
            assertTrue(java.nio.file.Files.readString(auditFile).contains("do not decode"), undecodable);

            // issue 61: the board's switch to the committed form (V23), cleared behind the projector's
            // back so that statements in the clear would be taken again, is a finding
            try (Connection c = ds.getConnection()) {
                assertEquals(
                        1,
                        c.createStatement()
                                .executeUpdate("UPDATE board_state SET committed_from = NULL WHERE board_id = "
                                        + "(SELECT board_id FROM boards WHERE name = '" + board + "')"));
            }
            String cleared = rebuilds.audit(1, env, "--board", board, "--out", auditFile.toString());
            String clearedReport = java.nio.file.Files.readString(auditFile);
            assertTrue(clearedReport.contains("COMMITTED_FORM_MISMATCH"), cleared + clearedReport);
            assertTrue(
                    clearedReport.contains("the board state says the board is not in the committed form, the records "
                            + "say since record 1"),
                    clearedReport);
        }
    }

    /** The erasures board's one record: its kind, delivery ID and artifact, read from its canonical statement. */
    private static Map<String, Object> erasureAccount(HikariDataSource ds) throws Exception {
        try (Connection c = ds.getConnection()) {
            short board = org.electorallog.store.Boards.find(c, "erasures")
                    .orElseThrow()
                    .id();
            List<byte[]> statements = new java.util.ArrayList<>();
            org.electorallog.store.RecordStatements.statements(
                    c, board, 0, Long.MAX_VALUE, (id, s) -> statements.add(s));
            assertEquals(1, statements.size(), "one erasure, one statement, on the erasures board");
            Map<String, Object> f = CanonicalStatementReader.fields(statements.get(0));
            Map<String, Object> out = new HashMap<>(f);
            out.put("artifact", new String((byte[]) f.get("artifact"), StandardCharsets.UTF_8));
            return out;
        }
    }

    private static Statement unsigned(Statement s) {
        s.setSenderPublicKey(ByteBuffer.allocate(0)); // the producer's sender key goes here
        return s;
    }

    /** User ID to rows of openings held (1 or 0), for the board's records that still hold a user ID. */
    private static Map<String, Long> valuesLeft(HikariDataSource ds, String board) throws Exception {
        Map<String, Long> out = new HashMap<>();
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT r.user_id, CASE WHEN r.openings IS NULL THEN 0 ELSE 1 END "
                                + "FROM records r JOIN boards b USING (board_id) WHERE b.name = ? AND r.user_id IS NOT NULL")) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }

    private static byte[] root(HikariDataSource ds, String board) throws Exception {
        try (Connection c = ds.getConnection()) {
            byte[] root =
                    org.electorallog.store.Boards.state(c, board).orElseThrow().root();
            assertNotNull(root);
            return root;
        }
    }

    private String erase(int expectedCode, Map<String, String> env, String... args) {
        EraseCommand c = new EraseCommand();
        c.environment = env;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        c.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        c.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code = new picocli.CommandLine(c).execute(args);
        lastErr = err.toString(StandardCharsets.UTF_8);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(expectedCode, code, text + lastErr);
        if (expectedCode == 2) {
            assertEquals(1, lastErr.strip().lines().count(), "one line: " + lastErr);
        }
        return text;
    }
}
