package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.SigningKey;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.CommittedForm;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.CastVoteError;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.ContentKeys;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.statement.PersonalCommitment;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.electorallog.statement.SealingKeys;
import org.electorallog.store.BoardState;
import org.electorallog.store.Boards;
import org.electorallog.store.Erasure;
import org.electorallog.store.KeyMaker;
import org.electorallog.store.KeyStoreCopy;
import org.electorallog.store.LogWriter;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SqlDataKeys;
import org.electorallog.store.SqlSealingKeys;
import org.electorallog.store.StoredOpenings;
import org.electorallog.testkit.TopicReader;
import org.junit.jupiter.api.Test;

/**
 * The committed form through the projector (issue 46, docs/personal-data.md "The projection"), on
 * the real broker and PostgreSQL: statements published by the producer in the committed form are
 * projected with their values (in the records' columns and, with their salts, in
 * records.openings, each opening its commitment); forged openings and a key the store never had
 * are dead-lettered with their reasons; the topic's bytes hold no value; a replay after a day's key
 * is erased and a user's values are erased projects those statements with their commitments only
 * and every root is the same; and a batch whose key or statement was erased after its events were
 * decoded stores no value.
 */
class CommittedFormProjectionTest {
    private static final long DAY_1 = 1_796_000_000_000L; // 2026-11-30
    private static final long DAY_2 = DAY_1 + 86_400_000L; // 2026-12-01

    @Test
    void valuesAreProjectedCheckedAndGoneFromAReplayOnceTheirKeyIsErased() throws Exception {
        ProjectorHarness h = new ProjectorHarness("committed", 1);
        String suffix = Long.toString(System.nanoTime(), 36);
        String board = "committed-" + suffix;
        DatabaseLogin db = h.stack.database();
        String url = h.createDatabase("committed_" + suffix);
        KeyEncryptionKeys kek = KeyEncryptionKeys.generate();
        ProjectorSettings settings = h.settings.withDatabase(db.atUrl(url)).withKeyEncryption(kek);
        try (HikariDataSource live = ProjectionDatabase.pool(url, db.user(), db.password(), 2, "committed-live")) {
            Migrations.apply(live);
            // the producer asks the key store for the day's public key; the projector's key maker makes it
            SqlSealingKeys keys = new SqlSealingKeys(live);
            List<String> users = List.of("alice", "bob", "carol");
            try (Projector p = Projector.start(settings);
                    ElectoralLogProducer committed = ElectoralLogProducer.builder(h.stack.kafkaBootstrap())
                            .topic(h.topic)
                            .senderKey(SigningKey.generate())
                            .committedForm(keys)
                            .build();
                    ElectoralLogProducer plain = ElectoralLogProducer.create(
                            ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
                ElectionStatements votes = new ElectionStatements(board, 11);
                for (int i = 0; i < users.size(); i++) {
                    committed
                            .publish(vote(votes, users.get(i), i == 2 ? DAY_2 : DAY_1))
                            .get();
                }
                // forged: the openings are sealed with the day's key, but bob's user ID is opened to another
                CommittedForm.Committed forged = CommittedForm.commit(votes.vote("dave", DAY_1));
                List<Opening> lies = new ArrayList<>();
                for (Opening o : forged.openings()) {
                    lies.add(o.path().equals("user_id") ? new Opening("user_id", o.salt(), "bob") : o);
                }
                plain.publish(envelope(forged, keys.forDay(board, LocalDate.of(2026, 11, 30)), lies))
                        .get();
                // a key the store never had (sealed elsewhere, or the key store restored from an old backup)
                CommittedForm.Committed stray = CommittedForm.commit(votes.vote("erin", DAY_1 - 86_400_000L * 30));
                SealingKeys.SealingKey foreign = new SealingKeys.SealingKey(
                        board + "/2026-10-31", ContentKeys.newKeyPair().publicKey());
                plain.publish(envelope(stray, foreign, stray.openings())).get();
                h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            }

            Map<String, String> reasons = DeadLetters.reasons(h);
            assertEquals(2, reasons.size(), reasons.toString());
            assertTrue(reasons.containsValue("BAD_OPENING"), reasons.toString());
            assertTrue(reasons.containsValue("UNKNOWN_DATA_KEY"), reasons.toString());

            // the statements as they reached the topic, by delivery ID: their commitments
            Map<String, Statement> published = new TreeMap<>();
            StatementCodec codec = StatementCodec.embedded();
            for (var r : TopicReader.readAll(h.stack.kafkaBootstrap(), h.topic)) {
                Statement st = codec.decodeSpecific(r.value()).getStatement();
                published.put(st.getDeliveryId().toString(), st);
            }
            short boardId;
            try (Connection c = live.getConnection()) {
                BoardState s = Boards.state(c, board).orElseThrow();
                boardId = s.board().id();
                assertEquals(3, s.size());
                for (int id = 0; id < 3; id++) {
                    assertEquals(users.get(id), column(c, boardId, id, "user_id"));
                    assertEquals(users.get(id) + "@example.org", column(c, boardId, id, "username"));
                    List<Opening> openings = StoredOpenings.of(c, boardId, id);
                    assertEquals(4, openings.size(), "user_id, username, body.ip, body.country");
                    Statement st = published.get(deliveryId(c, boardId, id));
                    for (Opening o : openings) {
                        assertTrue(
                                PersonalCommitment.opens(
                                        bytes(st.getCommitments().get(o.path())),
                                        board,
                                        st.getDeliveryId().toString(),
                                        o.path(),
                                        o.salt(),
                                        o.value()),
                                "the stored opening of " + o.path() + " opens the record's commitment");
                    }
                }
                // the second day's key is erased, and alice's values by user (what electoral-log erase does)
                c.setAutoCommit(false);
                assertEquals(
                        List.of(board + "/2026-12-01"),
                        Erasure.days(c, boardId, board, LocalDate.of(2026, 12, 1), LocalDate.of(2026, 12, 1))
                                .keysErased());
                assertEquals(1, Erasure.user(c, boardId, board, "alice").records());
                c.commit();
            }

            // a reader of the topic holding no key learns no value: none is in any event's bytes
            for (var r : TopicReader.readAll(h.stack.kafkaBootstrap(), h.topic)) {
                String text = new String(r.value(), java.nio.charset.StandardCharsets.ISO_8859_1);
                for (String user : users) {
                    assertFalse(text.contains(user), "a value in the topic's bytes: " + user);
                }
            }

            String replayUrl = h.createDatabase("committed_replay_" + suffix);
            try (HikariDataSource replay =
                    ProjectionDatabase.pool(replayUrl, db.user(), db.password(), 2, "committed-replay")) {
                Migrations.apply(replay);
                assertEquals(2, KeyStoreCopy.copy(live, replay), "both days' keys, one of them erased");
                try (Projector p = Projector.start(settings.withApplicationId("replay-" + h.topic)
                        .withDatabase(db.atUrl(replayUrl))
                        .withStateDir(h.settings.stateDir().resolveSibling("replay-" + h.topic)))) {
                    h.awaitProjected(replayUrl, h.endOffsets(), Duration.ofMinutes(1));
                }
                try (Connection a = live.getConnection();
                        Connection b = replay.getConnection()) {
                    BoardState x = Boards.state(a, board).orElseThrow();
                    BoardState y = Boards.state(b, board).orElseThrow();
                    assertEquals(x.size(), y.size());
                    assertArrayEquals(x.root(), y.root(), "the erasure changed no leaf: the same root");
                    short replayId = y.board().id();
                    assertNull(column(b, replayId, 0, "user_id"), "the user erased is not brought back by the replay");
                    assertNull(column(b, replayId, 0, "username"));
                    assertEquals(List.of(), StoredOpenings.of(b, replayId, 0));
                    assertEquals(users.get(1), column(b, replayId, 1, "user_id"), "the others' values are replayed");
                    assertEquals(4, StoredOpenings.of(b, replayId, 1).size());
                    assertNull(column(b, replayId, 2, "user_id"), "the erased day's value is gone from the replay");
                    assertNull(column(b, replayId, 2, "username"));
                    assertEquals(List.of(), StoredOpenings.of(b, replayId, 2));
                    assertEquals(counters(a, boardId), counters(b, replayId), "counted by commitment, not value");
                }
            }
        }
    }

    /** CastVoteError's error, required by the schema, goes behind a commitment too (decision 141). */
    @Test
    void aCastVoteErrorIsProjectedWithTheErrorItsOpeningsHold() throws Exception {
        ProjectorHarness h = new ProjectorHarness("committed-error", 1);
        String suffix = Long.toString(System.nanoTime(), 36);
        String board = "committed-error-" + suffix;
        DatabaseLogin db = h.stack.database();
        String url = h.createDatabase("committed_error_" + suffix);
        ProjectorSettings settings =
                h.settings.withDatabase(db.atUrl(url)).withKeyEncryption(KeyEncryptionKeys.generate());
        try (HikariDataSource live = ProjectionDatabase.pool(url, db.user(), db.password(), 2, "committed-error")) {
            Migrations.apply(live);
            Statement error = ElectionStatements.everyKind(board).stream()
                    .filter(st -> st.getKind() == StatementKind.CAST_VOTE_ERROR)
                    .findFirst()
                    .orElseThrow();
            error.setStatementTimestamp(DAY_1);
            error.setSenderPublicKey(ByteBuffer.allocate(0));
            try (Projector p = Projector.start(settings);
                    ElectoralLogProducer committed = ElectoralLogProducer.builder(h.stack.kafkaBootstrap())
                            .topic(h.topic)
                            .senderKey(SigningKey.generate())
                            .committedForm(new SqlSealingKeys(live))
                            .build()) {
                committed.publish(error).get();
                h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            }
            assertEquals(Map.of(), DeadLetters.reasons(h));
            Statement sent = StatementCodec.embedded()
                    .decodeSpecific(TopicReader.readAll(h.stack.kafkaBootstrap(), h.topic)
                            .get(0)
                            .value())
                    .getStatement();
            assertEquals("", ((CastVoteError) sent.getBody()).getError().toString(), "the topic holds no error text");
            try (Connection c = live.getConnection()) {
                short boardId = Boards.state(c, board).orElseThrow().board().id();
                assertEquals(
                        "ballot rejected", column(c, boardId, 0, "error"), "the opened value, not the placeholder");
                assertEquals(
                        List.of("body.error", "user_id", "username"),
                        StoredOpenings.of(c, boardId, 0).stream()
                                .map(Opening::path)
                                .toList());
            }
        }
    }

    @Test
    void aBatchWhoseKeyWasErasedAfterItsEventsWereDecodedStoresNoValue() throws Exception {
        ProjectorHarness h = new ProjectorHarness("committed-race", 1);
        String suffix = Long.toString(System.nanoTime(), 36);
        DatabaseLogin db = h.stack.database();
        String url = h.createDatabase("committed_race_" + suffix);
        try (HikariDataSource ds = ProjectionDatabase.pool(url, db.user(), db.password(), 2, "committed-race")) {
            Migrations.apply(ds);
            KeyEncryptionKeys kek = KeyEncryptionKeys.generate();
            SqlDataKeys keys = new SqlDataKeys(ds, kek);
            String board = "race-" + suffix;
            CommittedForm.Committed c = CommittedForm.commit(new ElectionStatements(board, 5).vote("frank", DAY_1));
            SealingKeys.SealingKey key;
            try (KeyMaker maker = new KeyMaker(ds, kek)) {
                key = maker.make(board, LocalDate.of(2026, 11, 30));
            }
            StatementCodec codec = StatementCodec.embedded();
            var st = codec.decode(codec.encode(envelope(c, key, c.openings())));
            PersonalOpening.Opened opened = new PersonalOpening(keys).open(st);
            PendingEvent event = new PendingEvent(opened, 0, 0, DAY_1, board, new byte[0], null);
            assertEquals("frank", event.content().fields().userId());

            try (Connection conn = ds.getConnection()) {
                // erased by user since: a replay meets the statement again and stores no value
                try (PreparedStatement ps = conn.prepareStatement(
                        "INSERT INTO personal_keys.erased_statements (leaf_hash, board) VALUES (?, ?)")) {
                    ps.setBytes(1, event.leafHash());
                    ps.setString(2, board);
                    assertEquals(1, ps.executeUpdate());
                }
                conn.setAutoCommit(false);
                assertNull(ErasedKeys.withoutErased(LogWriter.on(conn), List.of(event))
                        .get(0)
                        .content()
                        .fields()
                        .userId());
                conn.rollback();
                conn.createStatement().executeUpdate("DELETE FROM personal_keys.erased_statements");
                conn.setAutoCommit(true);
                // the day's key erased since
                conn.createStatement()
                        .executeUpdate(
                                "UPDATE personal_keys.data_keys SET wrapped = NULL, kek_id = NULL, erased = now() "
                                        + "WHERE key_id = '" + key.id() + "'");
                conn.setAutoCommit(false);
                List<PendingEvent> kept = ErasedKeys.withoutErased(LogWriter.on(conn), List.of(event));
                conn.rollback();
                assertEquals(List.of(), kept.get(0).openings());
                assertNull(kept.get(0).content().fields().userId(), "no value reaches the record");
                assertNull(kept.get(0).content().openings(), "nor an opening");
                assertTrue(kept.get(0).statement().hasUser());
                assertArrayEquals(event.leafHash(), kept.get(0).leafHash(), "the same leaf");
            }
        }
    }

    private static Statement vote(ElectionStatements votes, String user, long time) {
        Statement v = votes.vote(user, time);
        v.setSenderPublicKey(ByteBuffer.allocate(0));
        return v;
    }

    private static Envelope envelope(CommittedForm.Committed c, SealingKeys.SealingKey key, List<Opening> openings) {
        return PersonalOpeningTest.envelope(c, PersonalOpeningTest.sealed(c, key.id(), key.publicKey(), openings));
    }

    private static String column(Connection c, short boardId, long id, String column) throws Exception {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + column + " FROM records WHERE board_id = ? AND id = ?")) {
            ps.setShort(1, boardId);
            ps.setLong(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "record " + id);
                return rs.getString(1);
            }
        }
    }

    private static String deliveryId(Connection c, short boardId, long id) throws Exception {
        return column(c, boardId, id, "delivery_id");
    }

    private static Map<String, Long> counters(Connection c, short boardId) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT kind, election_id, n FROM counters WHERE board_id = ?")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getShort(1) + "/" + rs.getString(2), rs.getLong(3));
                }
            }
        }
        return out;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
