package org.electorallog.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SigningKey;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.store.Projection;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * BRIEF invariant 5: rows changed, deleted or inserted behind the projector's back are reported with
 * the right class and record ID; an untouched board audits clean; an audit during projection is
 * clean; an audit page reads at most two pages' worth of rows.
 */
class AuditTest {
    static final String BOARD = "audit-board";
    static final int N = 3_000;
    static final Stack STACK = SharedStack.get();
    static final NoteSigner LOG = NoteSigner.generate("audit-test.electoral-log.local");
    static final SigningKey SENDER = SigningKey.generate();
    static String base;
    static String topic;

    static String url(String db) {
        String u = STACK.database().jdbcUrl();
        return u.substring(0, u.lastIndexOf('/') + 1) + db;
    }

    static void sql(String db, String statement) throws Exception {
        DatabaseLogin a = STACK.database();
        try (Connection c = DriverManager.getConnection(url(db), a.user(), a.password())) {
            c.createStatement().execute(statement);
        }
    }

    static ProjectorSettings settings(String db, String appId) {
        DatabaseLogin a = STACK.database();
        return ProjectorSettings.defaults(
                        STACK.kafkaBootstrap(), a.atUrl(url(db)), Path.of("target/stack/audit-" + appId), LOG)
                .withTopics(topic, topic + ".dlq")
                .withApplicationId(appId)
                .withBatch(500, Duration.ofMillis(50))
                .withOriginPrefix("audit-test.electoral-log.local/");
    }

    static Statement statement(int i) {
        return Statement.newBuilder()
                .setBoard(BOARD)
                .setDeliveryId("a-" + i)
                .setKind(i % 5 == 4 ? StatementKind.CAST_VOTE : StatementKind.IDP_USER_EVENT)
                .setStatementTimestamp(1_767_225_600_000L + i)
                .setSenderName("s")
                .setSenderPublicKey(ByteBuffer.allocate(0))
                .setUserId("user-" + i / 5)
                .setElectionId(i % 5 == 4 ? "e" + (i % 3) : null)
                .build();
    }

    @BeforeAll
    static synchronized void projectOnce() throws Exception {
        if (base != null) {
            return; // projected once for every test class of this module that audits it
        }
        topic = "audit-events-" + System.nanoTime();
        EventsTopic.ensure(STACK.kafkaBootstrap(), topic, 1, (short) 1);
        EventsTopic.ensure(STACK.kafkaBootstrap(), topic + ".dlq", 1, (short) 1);
        base = "audit_base_" + System.nanoTime();
        sql("postgres", "CREATE DATABASE " + base);
        try (Projector p = Projector.start(settings(base, "audit-" + topic).withCheckpointEvery(Duration.ZERO));
                ElectoralLogProducer producer = ElectoralLogProducer.builder(STACK.kafkaBootstrap())
                        .topic(topic)
                        .senderKey(SENDER)
                        .build()) {
            for (int i = 0; i < N; i++) {
                producer.publish(statement(i));
            }
            producer.flush();
            awaitSize(base, N);
        }
    }

    static void awaitSize(String db, long n) throws Exception {
        DatabaseLogin a = STACK.database();
        Poll.until(Duration.ofMinutes(2), "a board of " + n + " records projected", () -> {
            try (Connection c = DriverManager.getConnection(url(db), a.user(), a.password());
                    ResultSet rs = c.createStatement().executeQuery("SELECT coalesce(max(size), 0) FROM board_state")) {
                if (!rs.next()) {
                    throw new AssertionError("the query returned no row");
                }
                return rs.getLong(1) >= n;
            } catch (java.sql.SQLException e) {
                return false; // not migrated yet
            }
        });
    }

    /** A copy of the projected database with one tampering applied, audited. */
    static AuditResult auditCopy(String tamper) throws Exception {
        String copy = "audit_copy_" + System.nanoTime();
        sql("postgres", "CREATE DATABASE " + copy + " TEMPLATE " + base);
        if (tamper != null) {
            sql(copy, tamper);
        }
        return audit(copy, AuditOptions.of(List.of(NoteVerifier.parse(LOG.verifierKey()))));
    }

    static AuditResult audit(String db, AuditOptions options) throws Exception {
        DatabaseLogin a = STACK.database();
        try (HikariDataSource ds = ProjectionDatabase.pool(url(db), a.user(), a.password(), 2, "audit")) {
            return new BoardAuditor(Projection.over(ds), options).audit(BOARD, new BoardAuditor.Progress());
        }
    }

    static final String BOARD_ID = "(SELECT board_id FROM boards WHERE name = '" + BOARD + "')";

    static void assertFinding(AuditResult r, Finding.Kind kind, Long recordId) {
        assertTrue(!r.clean(), "findings expected: " + r.toJson());
        boolean found = r.findings(kind).stream().anyMatch(f -> java.util.Objects.equals(f.recordId(), recordId));
        assertTrue(found, kind + " for record " + recordId + " expected in " + r.toJson());
    }

    @Test
    void anUntouchedBoardAuditsCleanAndTheJsonSaysSo() throws Exception {
        AuditResult r = auditCopy(null);
        assertTrue(r.clean(), r.toJson());
        assertEquals(N, r.recordsChecked());
        JsonNode json = new ObjectMapper().readTree(r.toJson());
        assertEquals("clean", json.get("verdict").asText());
        // and with every statement's sender signature required (they are all signed)
        String copy = "audit_signed_" + System.nanoTime();
        sql("postgres", "CREATE DATABASE " + copy + " TEMPLATE " + base);
        AuditResult signed =
                audit(copy, new AuditOptions(List.of(NoteVerifier.parse(LOG.verifierKey())), true, List.of(), 1000));
        assertTrue(signed.clean(), signed.toJson());
    }

    @Test
    void anUpdatedFieldIsReportedWithItsRecord() throws Exception {
        assertFinding(
                auditCopy("UPDATE records SET username = 'mallory' WHERE id = 1234 AND board_id = " + BOARD_ID),
                Finding.Kind.RECORD_FIELD_MISMATCH,
                1234L);
        AuditResult bytes = auditCopy(
                "UPDATE records SET stored_statement = set_byte(stored_statement, 29, get_byte(stored_statement, 29) # 255) "
                        + "WHERE id = 77 AND board_id = " + BOARD_ID);
        assertFinding(bytes, Finding.Kind.LEAF_MISMATCH, 77L);
    }

    /**
     * The statements' signatures, checked by the verifier's entry checks (issue 62 item 5): a
     * changed sender signature is a BAD_SIGNATURE, and a removed one is UNSIGNED when every statement
     * must be signed (and only counted when not).
     */
    @Test
    void aChangedOrRemovedSignatureIsReported() throws Exception {
        assertFinding(
                auditCopy(
                        "UPDATE records SET sender_signature = set_byte(sender_signature, 3, get_byte(sender_signature, 3) # 1) "
                                + "WHERE id = 42 AND board_id = " + BOARD_ID),
                Finding.Kind.BAD_SIGNATURE,
                42L);
        String copy = "audit_unsigned_" + System.nanoTime();
        sql("postgres", "CREATE DATABASE " + copy + " TEMPLATE " + base);
        sql(copy, "UPDATE records SET sender_signature = NULL WHERE id = 43 AND board_id = " + BOARD_ID);
        assertFinding(
                audit(copy, new AuditOptions(List.of(NoteVerifier.parse(LOG.verifierKey())), true, List.of(), 1000)),
                Finding.Kind.UNSIGNED,
                43L);
        assertTrue(audit(copy, AuditOptions.of(List.of(NoteVerifier.parse(LOG.verifierKey()))))
                .clean());
    }

    @Test
    void aRecordPointedAtAnotherSenderOrNoneIsReported() throws Exception {
        // sender keys live in senders since V5: a row's sender_id must resolve to the key its statement names
        assertFinding(
                auditCopy("INSERT INTO senders (public_key) VALUES ('\\x" + "ab".repeat(32) + "'::bytea); "
                        + "UPDATE records SET sender_id = (SELECT max(sender_id) FROM senders) WHERE id = 321 AND board_id = "
                        + BOARD_ID),
                Finding.Kind.RECORD_FIELD_MISMATCH,
                321L);
        assertFinding(
                auditCopy("UPDATE records SET sender_id = 999999 WHERE id = 654 AND board_id = " + BOARD_ID),
                Finding.Kind.RECORD_FIELD_MISMATCH,
                654L);
    }

    @Test
    void aDeletedRecordIsAGap() throws Exception {
        assertFinding(
                auditCopy("DELETE FROM records WHERE id = 2001 AND board_id = " + BOARD_ID),
                Finding.Kind.ID_GAP,
                2001L);
    }

    @Test
    void aForgedRecordIsReported() throws Exception {
        String forge =
                "INSERT INTO records (board_id, id, created, statement_ts, kind, sender_id, delivery_id, stored_statement, "
                        + "schema_id, kafka_partition, kafka_offset) SELECT board_id, " + N
                        + ", created, statement_ts, kind, sender_id, "
                        + "'forged', stored_statement, schema_id, kafka_partition, kafka_offset FROM records WHERE id = 5 AND board_id = "
                        + BOARD_ID;
        assertFinding(auditCopy(forge), Finding.Kind.EXTRA_RECORD, (long) N);
    }

    @Test
    void aChangedTileHashIsReported() throws Exception {
        // flip every bit of the first byte: setting it to a fixed value left it unchanged when the hash began so
        // (one run in 256, the data being random)
        AuditResult r = auditCopy("UPDATE tiles SET hashes = set_byte(hashes, 0, get_byte(hashes, 0) # 255) "
                + "WHERE level = 0 AND idx = 3 AND board_id = " + BOARD_ID);
        assertFinding(r, Finding.Kind.TILE_MISMATCH, 768L);
        assertFinding(r, Finding.Kind.LEAF_MISMATCH, 768L);
    }

    @Test
    void aChangedCounterIsReported() throws Exception {
        AuditResult r = auditCopy(
                "UPDATE counters SET n = n + 1 WHERE kind = 1 AND election_id = '' AND board_id = " + BOARD_ID);
        assertTrue(
                r.findings(Finding.Kind.COUNTER_MISMATCH).stream()
                        .anyMatch(f -> f.detail().startsWith("counter kind 1 ")),
                r.toJson());
    }

    @Test
    void aChangedHourlyCountIsReported() throws Exception {
        AuditResult r = auditCopy("UPDATE hourly_counts SET n = n - 1 WHERE board_id = " + BOARD_ID
                + " AND hour = (SELECT min(hour) FROM hourly_counts WHERE board_id = " + BOARD_ID + ")");
        assertTrue(
                r.findings(Finding.Kind.COUNTER_MISMATCH).stream()
                        .anyMatch(f -> f.detail().startsWith("hourly count of kind ")),
                r.toJson());
    }

    @Test
    void aReplacedCheckpointIsReported() throws Exception {
        // re-signed by another key
        NoteSigner other = NoteSigner.generate("audit-test.electoral-log.local");
        long size = 1500;
        String note = new Checkpoint("audit-test.electoral-log.local/" + BOARD, size, Hashes.sha256(new byte[] {1}))
                .sign(other);
        AuditResult r = auditCopy("INSERT INTO checkpoints (board_id, size, root, note) VALUES (" + BOARD_ID + ", "
                + size + ", sha256('\\x01'::bytea), '" + note
                + "') ON CONFLICT (board_id, size) DO UPDATE SET note = EXCLUDED.note, root = EXCLUDED.root");
        assertFinding(r, Finding.Kind.CHECKPOINT_MISMATCH, size);
        // signed by the log's own key but with a root that is not the records' root at that size
        String forged = new Checkpoint("audit-test.electoral-log.local/" + BOARD, size, Hashes.sha256(new byte[] {2}))
                .sign(LOG);
        AuditResult f = auditCopy("INSERT INTO checkpoints (board_id, size, root, note) VALUES (" + BOARD_ID + ", "
                + size + ", sha256('\\x02'::bytea), '" + forged
                + "') ON CONFLICT (board_id, size) DO UPDATE SET note = EXCLUDED.note, root = EXCLUDED.root");
        assertTrue(
                f.findings(Finding.Kind.CHECKPOINT_MISMATCH).stream()
                        .anyMatch(x -> x.recordId() == size && x.detail().contains("does not have the root")),
                f.toJson());
    }

    /**
     * The witness cosignatures the projection serves with its checkpoints: valid ones of the audit's
     * witnesses audit clean; a line over another checkpoint, a witnessed mark short of the quorum and
     * a witness the audit has no key for are each reported; none checked at all is never clean.
     */
    @Test
    void storedCosignaturesAreVerifiedAgainstTheWitnessesKeys() throws Exception {
        Cosigner.Key a = Cosigner.Key.generate("witness-a.example");
        Cosigner.Key b = Cosigner.Key.generate("witness-b.example");
        WitnessPolicy onlyA = WitnessPolicy.parse(List.of(a.verifierKey() + " http://127.0.0.1:1"), "1");
        WitnessPolicy both = WitnessPolicy.parse(
                List.of(a.verifierKey() + " http://127.0.0.1:1", b.verifierKey() + " http://127.0.0.1:2"), "2");
        AuditOptions keys = AuditOptions.of(List.of(NoteVerifier.parse(LOG.verifierKey())));
        String copy = "audit_cosigned_" + System.nanoTime();
        sql("postgres", "CREATE DATABASE " + copy + " TEMPLATE " + base);
        long size;
        String body;
        DatabaseLogin addr = STACK.database();
        try (Connection c = DriverManager.getConnection(url(copy), addr.user(), addr.password());
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT size, note FROM checkpoints WHERE board_id = " + BOARD_ID
                                + " ORDER BY size DESC LIMIT 1")) {
            assertTrue(rs.next(), "the board has a checkpoint");
            size = rs.getLong(1);
            body = SignedNote.parse(rs.getString(2)).text();
        }
        long now = System.currentTimeMillis() / 1000;
        cosign(copy, size, onlyA.witnesses().get(0).id(), a.cosign(body, now).line());
        sql(copy, "UPDATE checkpoints SET witnessed = now() WHERE size = " + size + " AND board_id = " + BOARD_ID);

        AuditResult clean = audit(copy, keys.withWitnesses(onlyA));
        assertTrue(clean.clean(), clean.toJson());
        AuditResult unchecked = audit(copy, keys);
        assertEquals(
                1, unchecked.findings(Finding.Kind.COSIGNATURES_NOT_CHECKED).size(), unchecked.toJson());
        assertEquals(1, unchecked.counts().size(), "nothing else: " + unchecked.toJson());
        AuditResult shortOfQuorum = audit(copy, keys.withWitnesses(both));
        assertTrue(
                shortOfQuorum.findings(Finding.Kind.COSIGNATURE_MISMATCH).stream()
                        .anyMatch(f ->
                                f.recordId() == size && f.detail().contains("the quorum is the group witnesses (2 of")),
                shortOfQuorum.toJson());

        // B's line is stored, but over another checkpoint body (a size it never cosigned)
        String other = body.replaceFirst("\n" + size + "\n", "\n" + (size + 1) + "\n");
        cosign(copy, size, both.witnesses().get(1).id(), b.cosign(other, now).line());
        AuditResult forged = audit(copy, keys.withWitnesses(both));
        assertTrue(
                forged.findings(Finding.Kind.COSIGNATURE_MISMATCH).stream()
                        .anyMatch(f -> f.recordId() == size && f.detail().contains("does not verify")),
                forged.toJson());
        AuditResult unknown = audit(copy, keys.withWitnesses(onlyA));
        assertTrue(
                unknown.findings(Finding.Kind.COSIGNATURES_NOT_CHECKED).stream()
                        .anyMatch(
                                f -> f.detail().contains(both.witnesses().get(1).id())),
                unknown.toJson());
        assertTrue(
                unknown.findings(Finding.Kind.COSIGNATURE_MISMATCH).isEmpty(),
                "A's line is valid: " + unknown.toJson());
    }

    private static void cosign(String db, long size, String witness, String line) throws Exception {
        DatabaseLogin a = STACK.database();
        try (Connection c = DriverManager.getConnection(url(db), a.user(), a.password());
                PreparedStatement ps = c.prepareStatement("INSERT INTO checkpoint_cosignatures "
                        + "(board_id, size, witness, line, cosigned) VALUES (" + BOARD_ID + ", ?, ?, ?, now())")) {
            ps.setLong(1, size);
            ps.setString(2, witness);
            ps.setString(3, line);
            ps.executeUpdate();
        }
    }

    @Test
    void aDroppedUniqueIndexWithADoubledDeliveryIdIsReported() throws Exception {
        AuditResult r = auditCopy("ALTER TABLE deliveries DROP CONSTRAINT deliveries_pkey; "
                + "UPDATE records SET delivery_id = 'a-10' WHERE id = 11 AND board_id = " + BOARD_ID);
        assertTrue(
                r.findings(Finding.Kind.DUPLICATE_DELIVERY_ID).stream()
                        .anyMatch(f -> f.recordId() == null && f.detail().contains("primary key of deliveries")),
                r.toJson());
        assertFinding(r, Finding.Kind.DUPLICATE_DELIVERY_ID, 11L);
        // the stored statement refers to the row's delivery ID (store V22): the changed column changes
        // the statement read back, whose leaf is then not the tree's
        assertFinding(r, Finding.Kind.LEAF_MISMATCH, 11L);
    }

    @Test
    void aRecordWhoseDeliveryKeyIsNotInDeliveriesIsReported() throws Exception {
        // the primary key of deliveries is intact, but record 11's delivery ID (now a repeat of
        // record 10's) was never keyed there: deliveries no longer matches the records
        AuditResult r = auditCopy("UPDATE records SET delivery_id = 'a-10' WHERE id = 11 AND board_id = " + BOARD_ID);
        assertTrue(
                r.findings(Finding.Kind.DUPLICATE_DELIVERY_ID).stream()
                        .anyMatch(f -> f.recordId() == null && f.detail().contains("do not match")),
                r.toJson());
        assertFinding(r, Finding.Kind.DUPLICATE_DELIVERY_ID, 11L);
    }

    @Test
    void anAuditRunningWhileTheProjectorWritesIsClean() throws Exception {
        String live = "audit_live_" + System.nanoTime();
        sql("postgres", "CREATE DATABASE " + live);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Projector p = Projector.start(settings(live, "audit-live-" + System.nanoTime()))) {
            awaitSize(live, N);
            // more statements on the board while audits run, back to back
            Thread writer = new Thread(() -> {
                try (ElectoralLogProducer producer = ElectoralLogProducer.builder(STACK.kafkaBootstrap())
                        .topic(topic)
                        .senderKey(SENDER)
                        .build()) {
                    for (int i = N; i < N + 20_000; i++) {
                        producer.publish(statement(i));
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            writer.start();
            int audits = 0;
            DatabaseLogin a = STACK.database();
            try (HikariDataSource ds = ProjectionDatabase.pool(url(live), a.user(), a.password(), 2, "verifier");
                    IncrementalVerifier verifier = new IncrementalVerifier(
                            Projection.over(ds), AuditOptions.of(List.of(NoteVerifier.parse(LOG.verifierKey()))))) {
                while (writer.isAlive() || audits < 3 || size(live) < N + 20_000) {
                    AuditResult r = audit(live, AuditOptions.of(List.of(NoteVerifier.parse(LOG.verifierKey()))));
                    assertTrue(r.clean(), "audit during projection: " + r.toJson());
                    verifier.pass();
                    audits++;
                }
                writer.join();
                assertEquals(null, failure.get());
                verifier.pass();
                IncrementalVerifier.Status status = verifier.status();
                assertEquals(0L, status.problems(), status.toString());
                assertEquals(size(live), status.boards().get(BOARD).verifiedSize(), status.toString());
            }
        }
    }

    @Test
    void theIncrementalVerifierNoticesARootThatIsNotTheRecords() throws Exception {
        String copy = "audit_inc_" + System.nanoTime();
        sql("postgres", "CREATE DATABASE " + copy + " TEMPLATE " + base);
        DatabaseLogin a = STACK.database();
        try (HikariDataSource ds = ProjectionDatabase.pool(url(copy), a.user(), a.password(), 1, "inc");
                IncrementalVerifier verifier = new IncrementalVerifier(
                        Projection.over(ds), AuditOptions.of(List.of(NoteVerifier.parse(LOG.verifierKey()))))) {
            verifier.pass();
            assertEquals(0L, verifier.status().problems());
            sql(copy, "UPDATE board_state SET root = sha256(root)");
            verifier.pass();
            assertEquals(1L, verifier.status().problems(), verifier.status().toString());
        }
    }

    /**
     * The verifier keeps the largest checkpoint it verified outside the projection: after a restart
     * it reports a board rolled back consistently below it (records, tiles, state, counters and
     * checkpoints of a shorter log, all matching each other, so a full audit alone finds nothing) and
     * a board whose tree at that size is another one (a fork), and nothing on the board it verified.
     */
    @Test
    void theVerifierRemembersWhatItVerifiedAcrossRestarts() throws Exception {
        AuditResult unsigned = audit(base, AuditOptions.of(List.of()));
        assertTrue(
                !unsigned.clean()
                        && !unsigned.findings(Finding.Kind.SIGNATURES_NOT_CHECKED)
                                .isEmpty(),
                "an audit without the log's key is never clean: " + unsigned.toJson());
        assertThrows(IllegalArgumentException.class, () -> new IncrementalVerifier(null, AuditOptions.of(List.of())));
        Path memory = Path.of("target/verifier-memory-" + System.nanoTime() + ".json");
        DatabaseLogin a = STACK.database();
        List<NoteVerifier> keys = List.of(NoteVerifier.parse(LOG.verifierKey()));
        try (HikariDataSource ds = ProjectionDatabase.pool(url(base), a.user(), a.password(), 1, "remember");
                IncrementalVerifier verifier =
                        new IncrementalVerifier(Projection.over(ds), AuditOptions.of(keys), memory)) {
            verifier.pass();
            assertEquals(0L, verifier.status().problems(), verifier.status().toString());
        }
        assertTrue(
                java.nio.file.Files.readString(memory).contains("\"size\" : " + N),
                java.nio.file.Files.readString(memory));

        String shorter = projectAlone("audit_short_", N / 2, "a-");
        assertTrue(audit(shorter, AuditOptions.of(keys)).clean(), "a consistent rollback passes the full audit alone");
        try (HikariDataSource ds = ProjectionDatabase.pool(url(shorter), a.user(), a.password(), 1, "short");
                IncrementalVerifier restarted =
                        new IncrementalVerifier(Projection.over(ds), AuditOptions.of(keys), memory)) {
            restarted.pass();
            assertEquals(1L, restarted.status().problems(), "a rollback below the verified checkpoint is reported");
        }
        String fork = projectAlone("audit_fork_", N, "fork-");
        try (HikariDataSource ds = ProjectionDatabase.pool(url(fork), a.user(), a.password(), 1, "fork");
                IncrementalVerifier restarted =
                        new IncrementalVerifier(Projection.over(ds), AuditOptions.of(keys), memory)) {
            restarted.pass();
            assertEquals(1L, restarted.status().problems(), "another tree at the verified size is reported");
        }
        try (HikariDataSource ds = ProjectionDatabase.pool(url(base), a.user(), a.password(), 1, "again");
                IncrementalVerifier restarted =
                        new IncrementalVerifier(Projection.over(ds), AuditOptions.of(keys), memory)) {
            restarted.pass();
            assertEquals(0L, restarted.status().problems(), "the verified board itself is fine after a restart");
        }
    }

    /** A new database holding only {@code n} statements of the board (delivery IDs with {@code prefix}), same log key. */
    static String projectAlone(String dbPrefix, int n, String prefix) throws Exception {
        String t = "audit-alone-" + System.nanoTime();
        EventsTopic.ensure(STACK.kafkaBootstrap(), t, 1, (short) 1);
        EventsTopic.ensure(STACK.kafkaBootstrap(), t + ".dlq", 1, (short) 1);
        String db = dbPrefix + System.nanoTime();
        sql("postgres", "CREATE DATABASE " + db);
        DatabaseLogin a = STACK.database();
        ProjectorSettings s = ProjectorSettings.defaults(
                        STACK.kafkaBootstrap(), a.atUrl(url(db)), Path.of("target/stack/audit-" + db), LOG)
                .withTopics(t, t + ".dlq")
                .withApplicationId("audit-alone-" + db)
                .withBatch(500, Duration.ofMillis(50))
                .withOriginPrefix("audit-test.electoral-log.local/")
                .withCheckpointEvery(Duration.ZERO);
        try (Projector p = Projector.start(s);
                ElectoralLogProducer producer = ElectoralLogProducer.builder(STACK.kafkaBootstrap())
                        .topic(t)
                        .senderKey(SENDER)
                        .build()) {
            for (int i = 0; i < n; i++) {
                Statement st = statement(i);
                st.setDeliveryId(prefix + i);
                producer.publish(st);
            }
            producer.flush();
            awaitSize(db, n);
        }
        return db;
    }

    static long size(String db) throws Exception {
        DatabaseLogin a = STACK.database();
        try (Connection c = DriverManager.getConnection(url(db), a.user(), a.password());
                ResultSet rs = c.createStatement().executeQuery("SELECT coalesce(max(size), 0) FROM board_state")) {
            if (!rs.next()) {
                throw new AssertionError("the query returned no row");
            }
            return rs.getLong(1);
        }
    }

    @Test
    void anAuditPageReadsAtMostTwoPagesOfRows() throws Exception {
        DatabaseLogin a = STACK.database();
        int page = 1000;
        try (Connection c = DriverManager.getConnection(url(base), a.user(), a.password())) {
            c.createStatement().execute("ANALYZE records");
            short boardId;
            try (ResultSet rs =
                    c.createStatement().executeQuery("SELECT board_id FROM boards WHERE name = '" + BOARD + "'")) {
                if (!rs.next()) {
                    throw new AssertionError("the query returned no row");
                }
                boardId = rs.getShort(1);
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + org.electorallog.store.Records.AUDIT_PAGE_SQL)) {
                ps.setShort(1, boardId);
                ps.setLong(2, 1500);
                ps.setLong(3, 1500 + page);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new AssertionError("the query returned no row");
                    }
                    JsonNode plan =
                            new ObjectMapper().readTree(rs.getString(1)).get(0).get("Plan");
                    long read = rowsRead(plan);
                    assertTrue(read <= 2L * page, "an audit page of " + page + " read " + read + " rows: " + plan);
                    assertTrue(read >= page, "the page read its rows: " + read);
                }
            }
        }
    }

    /** Rows produced plus rows removed by filters, over every node of a plan. */
    static long rowsRead(JsonNode node) {
        long n = node.path("Actual Rows").asLong()
                        * Math.max(1, node.path("Actual Loops").asLong())
                + node.path("Rows Removed by Filter").asLong()
                + node.path("Rows Removed by Index Recheck").asLong();
        for (JsonNode child : node.path("Plans")) {
            n += rowsRead(child);
        }
        return n;
    }
}
