package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/** {@code rebuild} reports equality on an intact projection and a difference after a row is altered. */
class RebuildTest {
    final Stack stack = SharedStack.get();

    String createDatabase(String name) throws Exception {
        DatabaseLogin db = stack.database();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            c.createStatement().execute("CREATE DATABASE " + name);
        }
        String url = db.jdbcUrl();
        return url.substring(0, url.lastIndexOf('/') + 1) + name;
    }

    @Test
    void rebuildFindsEqualityThenTheAlteredRow() throws Exception {
        String topic = "rebuild-events-" + System.nanoTime();
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 2, (short) 1);
        EventsTopic.ensure(stack.kafkaBootstrap(), topic + ".dlq", 1, (short) 1);
        DatabaseLogin db = stack.database();
        String live = createDatabase("rebuild_live_" + System.nanoTime());
        ProjectorSettings settings = ProjectorSettings.defaults(
                        stack.kafkaBootstrap(),
                        db.atUrl(live),
                        Path.of("target/stack/rebuild-live"),
                        NoteSigner.generate("rebuild-test.electoral-log.local"))
                .withTopics(topic, topic + ".dlq")
                .withApplicationId("live-" + topic)
                .withBatch(500, Duration.ofMillis(50))
                .withOriginPrefix("rebuild-test/");
        List<Statement> statements = new ElectionStatements("rebuild-board-1", 5).election(300);
        statements.addAll(new ElectionStatements("rebuild-board-2", 6).election(300));
        try (Projector p = Projector.start(settings);
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(stack.kafkaBootstrap()), topic)) {
            for (Statement s : statements) {
                producer.publish(s);
            }
            producer.flush();
            Map<Integer, Long> end = RebuildCommand.endOffsets(stack.kafkaBootstrap(), topic);
            Poll.until(Duration.ofMinutes(2), "the live projection to catch up", () -> projected(live, db, topic, end));
        }
        Map<String, String> env = new java.util.HashMap<>();
        env.put("ELECTORAL_LOG_KAFKA_BOOTSTRAP", stack.kafkaBootstrap());
        env.put("ELECTORAL_LOG_TOPIC", topic);
        env.put("ELECTORAL_LOG_DEAD_LETTER_TOPIC", topic + ".dlq");
        env.put("ELECTORAL_LOG_JDBC_URL", live);
        env.put("ELECTORAL_LOG_DB_USER", db.user());
        env.put("ELECTORAL_LOG_DB_PASSWORD", db.password());
        env.put("ELECTORAL_LOG_SIGNING_KEY", settings.signer().signerKey());
        env.put("ELECTORAL_LOG_ORIGIN_PREFIX", "rebuild-test/");
        env.put("ELECTORAL_LOG_LOG_KEYS", settings.signer().verifierKey());
        Path results = Path.of("target/rebuild-results.json");
        String equal = rebuild(
                0, env, "--into", createDatabase("rebuild_a_" + System.nanoTime()), "--results", results.toString());
        assertTrue(equal.contains("rebuild: EQUAL"), equal);
        assertTrue(equal.contains("audit rebuild-board-2: "), equal);
        assertTrue(equal.contains("ETA"), "progress with an ETA: " + equal);
        assertTrue(java.nio.file.Files.readString(results).contains("\"events_per_second\""));
        Path auditFile = Path.of("target/audit-rebuild-board-2.json");
        String clean = audit(0, env, "--board", "rebuild-board-2", "--out", auditFile.toString());
        assertTrue(clean.contains(": CLEAN;"), clean);
        assertTrue(java.nio.file.Files.readString(auditFile).contains("\"verdict\":\"clean\""));

        try (Connection c = DriverManager.getConnection(live, db.user(), db.password())) {
            c.createStatement()
                    .executeUpdate("UPDATE records SET username = 'mallory' WHERE id = 17 AND board_id = "
                            + "(SELECT board_id FROM boards WHERE name = 'rebuild-board-2')");
        }
        String different = rebuild(1, env, "--into", createDatabase("rebuild_b_" + System.nanoTime()));
        assertTrue(different.contains("rebuild: DIFFERENT"), different);
        assertTrue(different.contains("board rebuild-board-2: records differ"), different);
        assertTrue(!different.contains("rebuild-board-1: records"), "the untouched board compares equal: " + different);
        String findings = audit(1, env, "--board", "rebuild-board-2", "--out", auditFile.toString());
        assertTrue(findings.contains("RECORD_FIELD_MISMATCH"), findings);
        assertTrue(java.nio.file.Files.readString(auditFile).contains("\"record_id\":17"), findings);

        // failures are exit 2 with one line: a database that is not empty, a board that does not exist
        rebuild(2, env, "--into", live.replace("rebuild_live_", "no_such_db_"));
        assertEquals(1, lastErr.strip().lines().count(), lastErr);
        rebuild(2, env, "--into", live);
        assertTrue(lastErr.contains("names the live projection"), lastErr);
        audit(2, env, "--board", "no-such-board");
        assertEquals(1, lastErr.strip().lines().count(), lastErr);

        // the live database is gone: the rebuild still runs, audits, and says there was nothing to compare
        Map<String, String> gone = new java.util.HashMap<>(env);
        gone.put("ELECTORAL_LOG_JDBC_URL", live.replace("rebuild_live_", "dropped_live_"));
        String alone = rebuild(0, gone, "--into", createDatabase("rebuild_d_" + System.nanoTime()));
        assertTrue(alone.contains("does not answer; nothing to compare with"), alone);
        assertTrue(alone.matches("(?s).*audit rebuild-board-1: [0-9,]+ records, CLEAN.*"), alone);

        // an enforced sender registry with no grants to apply is refused before the replay
        Map<String, String> enforced = new java.util.HashMap<>(gone);
        enforced.put("ELECTORAL_LOG_SIGNATURE_POLICY", "SENDER");
        enforced.put("ELECTORAL_LOG_SENDER_REGISTRY", "ENFORCE");
        rebuild(2, enforced, "--into", createDatabase("rebuild_e_" + System.nanoTime()));
        assertTrue(lastErr.contains("--registry FILE"), lastErr);

        // so is a witness setting the audit at the end could not read: no replay, the target untouched
        Map<String, String> badWitness = new java.util.HashMap<>(gone);
        badWitness.put("ELECTORAL_LOG_WITNESSES", "not-a-key");
        String untouched = createDatabase("rebuild_f_" + System.nanoTime());
        String refused = rebuild(2, badWitness, "--into", untouched);
        assertTrue(lastErr.contains("<cosigner vkey> <URL>"), lastErr);
        assertTrue(!refused.contains("replaying"), "refused before the replay: " + refused);
    }

    private String lastErr = "";

    String rebuild(int expectedCode, Map<String, String> env, String... args) {
        RebuildCommand c = new RebuildCommand();
        c.environment = env;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        c.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        c.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code = new picocli.CommandLine(c).execute(args);
        lastErr = err.toString(StandardCharsets.UTF_8);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(expectedCode, code, text + lastErr);
        return text;
    }

    String audit(int expectedCode, Map<String, String> env, String... args) {
        AuditCommand c = new AuditCommand();
        c.environment = env;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        c.stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
        c.stderr = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code = new picocli.CommandLine(c).execute(args);
        lastErr = err.toString(StandardCharsets.UTF_8);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(expectedCode, code, text + lastErr);
        return text;
    }

    static boolean projected(String url, DatabaseLogin db, String topic, Map<Integer, Long> end) throws Exception {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password());
                var ps = c.prepareStatement("SELECT partition, next_offset FROM partition_offsets WHERE topic = ?")) {
            ps.setString(1, topic);
            Map<Integer, Long> stored = new java.util.HashMap<>();
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    stored.put(rs.getInt(1), rs.getLong(2));
                }
            }
            return end.entrySet().stream().allMatch(e -> stored.getOrDefault(e.getKey(), 0L) >= e.getValue());
        } catch (java.sql.SQLException e) {
            return false;
        }
    }
}
