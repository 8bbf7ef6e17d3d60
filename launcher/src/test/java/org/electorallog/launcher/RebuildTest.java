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
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.DatabaseAddress;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.schemas.avro.Statement;
import org.junit.jupiter.api.Test;

/** {@code rebuild} reports equality on an intact projection and a difference after a row is altered. */
class RebuildTest {
    final Stack stack = SharedStack.get();

    String createDatabase(String name) throws Exception {
        DatabaseAddress db = stack.database();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            c.createStatement().execute("CREATE DATABASE " + name);
        }
        String url = db.jdbcUrl();
        return url.substring(0, url.lastIndexOf('/') + 1) + name;
    }

    String run(int expectedCode, String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        int code;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            code = Main.run(args);
        } finally {
            System.setOut(old);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertEquals(expectedCode, code, out);
        return out;
    }

    @Test
    void rebuildFindsEqualityThenTheAlteredRow() throws Exception {
        String topic = "rebuild-events-" + System.nanoTime();
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 2, (short) 1);
        EventsTopic.ensure(stack.kafkaBootstrap(), topic + ".dlq", 1, (short) 1);
        DatabaseAddress db = stack.database();
        String live = createDatabase("rebuild_live_" + System.nanoTime());
        ProjectorSettings settings = new ProjectorSettings(
                stack.kafkaBootstrap(),
                topic,
                topic + ".dlq",
                "live-" + topic,
                Path.of("target/stack/rebuild-live"),
                live,
                db.user(),
                db.password(),
                500,
                Duration.ofMillis(50),
                NoteSigner.generate("rebuild-test.electoral-log.local"),
                "rebuild-test/",
                1);
        List<Statement> statements = ElectionGenerator.election("rebuild-board-1", 300, 5);
        statements.addAll(ElectionGenerator.election("rebuild-board-2", 300, 6));
        try (Projector p = Projector.start(settings);
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(stack.kafkaBootstrap()), topic)) {
            for (Statement s : statements) {
                producer.publish(s);
            }
            producer.flush();
            Map<Integer, Long> end = RebuildCommand.endOffsets(stack.kafkaBootstrap(), topic);
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (!projected(live, db, topic, end)) {
                assertTrue(System.nanoTime() < deadline, "live projection did not catch up");
                Thread.sleep(50); // poll interval; the stored offsets are the condition
            }
        }
        String[] common = {
            "--from",
            live,
            "--user",
            db.user(),
            "--password",
            db.password(),
            "--bootstrap",
            stack.kafkaBootstrap(),
            "--topic",
            topic
        };
        String equal = run(
                0,
                concat(new String[] {"rebuild", "--into", createDatabase("rebuild_a_" + System.nanoTime())}, common));
        assertTrue(equal.contains("rebuild: EQUAL"), equal);
        Path auditFile = Path.of("target/audit-rebuild-board-2.json");
        String[] audit = {
            "audit",
            "--board",
            "rebuild-board-2",
            "--jdbc-url",
            live,
            "--user",
            db.user(),
            "--password",
            db.password(),
            "--log-key",
            settings.signer().verifierKey(),
            "--out",
            auditFile.toString()
        };
        String clean = run(0, audit);
        assertTrue(clean.contains(": CLEAN;"), clean);
        assertTrue(java.nio.file.Files.readString(auditFile).contains("\"verdict\":\"clean\""));

        try (Connection c = DriverManager.getConnection(live, db.user(), db.password())) {
            c.createStatement()
                    .executeUpdate("UPDATE records SET username = 'mallory' WHERE id = 17 AND board_id = "
                            + "(SELECT board_id FROM boards WHERE name = 'rebuild-board-2')");
        }
        String different = run(
                1,
                concat(new String[] {"rebuild", "--into", createDatabase("rebuild_b_" + System.nanoTime())}, common));
        assertTrue(different.contains("rebuild: DIFFERENT"), different);
        assertTrue(different.contains("board rebuild-board-2: records differ"), different);
        assertTrue(!different.contains("rebuild-board-1"), "the untouched board compares equal: " + different);
        String findings = run(1, audit);
        assertTrue(findings.contains("RECORD_FIELD_MISMATCH"), findings);
        assertTrue(java.nio.file.Files.readString(auditFile).contains("\"record_id\":17"), findings);

        run(2, concat(new String[] {"rebuild", "--into", live}, common));
    }

    static boolean projected(String url, DatabaseAddress db, String topic, Map<Integer, Long> end) throws Exception {
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

    static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
