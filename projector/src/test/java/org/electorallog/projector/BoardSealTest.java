package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.BoardState;
import org.electorallog.store.Boards;
import org.electorallog.store.ProjectionComparison;
import org.electorallog.store.ProjectionDatabase;
import org.junit.jupiter.api.Test;

/**
 * Sealing a board (issue 42): the first BOARD_SEALED statement is the board's last record, its
 * checkpoint is signed at once (the interval here is an hour), every later statement for the board
 * is dead-lettered {@code BOARD_SEALED} (in the sealing batch, in later ones, after a restart that
 * loads the sealed board from the database), a redelivered seal or earlier statement is a
 * duplicate, another board of the same partition goes on, a replay seals at the same size, and the
 * database refuses to grow a sealed board behind the projector's back.
 */
class BoardSealTest {
    static final int BEFORE = 5;

    @Test
    void aSealedBoardNeverGrowsAndItsPartitionGoesOn() throws Exception {
        ProjectorHarness h = new ProjectorHarness("seal", 1); // one partition: both boards share it
        String suffix = Long.toString(System.nanoTime(), 36);
        String sealed = "sealed-" + suffix;
        String open = "open-" + suffix;
        DatabaseLogin db = h.stack.database();
        String url = h.createDatabase("seal_" + suffix);
        // with the log's ML-DSA-44 key once an hour: the sealed checkpoint carries it all the same (decision 146)
        org.electorallog.core.Cosigner.Key postQuantum = org.electorallog.core.Cosigner.Key.generateMlDsa44(
                h.settings.signer().name());
        ProjectorSettings settings = h.settings
                .withDatabase(db.atUrl(url))
                .withCheckpointEvery(Duration.ofHours(1))
                .withSigner(h.settings.signer().withPostQuantum(postQuantum))
                .withPostQuantumEvery(Duration.ofHours(1));
        List<String> refusedIds = new ArrayList<>();
        int openCount = 0;
        // signed with the log's key: a seal is taken from no other (decision 130); the other statements
        // are unsigned as far as the policy (NONE) cares
        try (ElectoralLogProducer producer = logsOwn(h, settings)) {
            try (Projector p = Projector.start(settings)) {
                for (int i = 0; i < BEFORE; i++) {
                    producer.publish(ProjectorHarness.statement(sealed, "before-" + i, 1_000 + i));
                    producer.publish(ProjectorHarness.statement(open, "open-" + openCount++, 1_000 + i));
                }
                producer.flush();
                h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));

                // the seal, a second seal and statements after it, with the open board between them:
                // published at once, so that some share the sealing batch
                producer.publish(seal(sealed, "seal:" + sealed));
                producer.publish(ProjectorHarness.statement(open, "open-" + openCount++, 2_000));
                producer.publish(seal(sealed, "seal:" + sealed, 2_500)); // another seal: only one ID a board
                refusedIds.add("seal:" + sealed);
                for (int i = 0; i < 3; i++) {
                    producer.publish(ProjectorHarness.statement(sealed, "after-" + i, 2_000 + i));
                    refusedIds.add("after-" + i);
                    producer.publish(ProjectorHarness.statement(open, "open-" + openCount++, 2_000 + i));
                }
                producer.flush();
                h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
                // signed in the sealing batch although the interval is an hour
                assertTrue(
                        checkpointSizes(url, sealed).contains(BEFORE + 1L),
                        checkpointSizes(url, sealed).toString());
                // and with the ML-DSA-44 signature, although the board's last one was within the hour
                java.util.SortedMap<Long, String> notes = checkpointNotes(url, sealed);
                assertTrue(notes.firstKey() < BEFORE + 1L, notes.keySet().toString());
                org.electorallog.core.Checkpoint.open(
                        notes.get(BEFORE + 1L),
                        List.of(org.electorallog.core.NoteVerifier.parse(postQuantum.verifierKey())));
            }
            // a new projector loads the sealed board from the database
            try (Projector p = Projector.start(settings)) {
                producer.publish(seal(sealed, "seal:" + sealed)); // redelivered: a duplicate
                producer.publish(ProjectorHarness.statement(sealed, "before-1", 1_001)); // redelivered too
                producer.publish(ProjectorHarness.statement(sealed, "late", 3_000));
                refusedIds.add("late");
                producer.publish(ProjectorHarness.statement(open, "open-" + openCount++, 3_000));
                producer.flush();
                h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
                assertEquals(1, p.metrics().deadLetters(), "this instance refused the late statement only");
            }
        }

        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            BoardState s = Boards.state(c, sealed).orElseThrow();
            assertEquals(BEFORE + 1L, s.size(), "the seal is the last record");
            assertNotNull(s.sealedMillis());
            assertEquals(2, s.duplicatesDropped(), "the redelivered seal and statement are duplicates");
            assertEquals(StatementKinds.BOARD_SEALED, kindOf(c, s, BEFORE));
            BoardState o = Boards.state(c, open).orElseThrow();
            assertEquals(openCount, o.size(), "the open board of the same partition got everything");
            assertNull(o.sealedMillis());
            List<Long> sizes = checkpointSizes(url, sealed);
            assertEquals(BEFORE + 1L, sizes.get(sizes.size() - 1), "no checkpoint after the seal: " + sizes);

            // below the projector: the database refuses to change a sealed board (V17)
            SQLException e = assertThrows(SQLException.class, () -> {
                try (PreparedStatement ps =
                        c.prepareStatement("UPDATE board_state SET size = size + 1 WHERE board_id = ?")) {
                    ps.setShort(1, s.board().id());
                    ps.executeUpdate();
                }
            });
            assertEquals("XX000", e.getSQLState(), e.getMessage());
        }

        Map<String, String> reasons = DeadLetters.reasons(h);
        Map<String, String> expected = new TreeMap<>();
        refusedIds.forEach(id -> expected.put(id, "BOARD_SEALED"));
        expected.put("seal:" + sealed, "DELIVERY_ID_REUSED");
        assertEquals(expected, reasons);

        // a replay of the topic into a new database seals at the same size
        String replay = h.createDatabase("seal_replay_" + suffix);
        try (Projector p = Projector.start(settings.withApplicationId("replay-" + h.topic)
                .withDatabase(db.atUrl(replay))
                .withStateDir(h.settings.stateDir().resolveSibling("replay-" + h.topic)))) {
            h.awaitProjected(replay, h.endOffsets(), Duration.ofMinutes(1));
        }
        try (HikariDataSource a = ProjectionDatabase.pool(url, db.user(), db.password(), 2, "seal-live");
                HikariDataSource b = ProjectionDatabase.pool(replay, db.user(), db.password(), 2, "seal-replay")) {
            assertEquals(List.of(), ProjectionComparison.compare(a, b), "the replay equals the live projection");
        }
    }

    /** A producer on the harness's topic signing with the log's key of {@code settings}: what may send a seal. */
    static ElectoralLogProducer logsOwn(ProjectorHarness h, ProjectorSettings settings) {
        return ElectoralLogProducer.builder(h.stack.kafkaBootstrap())
                .topic(h.topic)
                .senderKey(settings.signer().statementKey())
                .build();
    }

    static Statement seal(String board, String deliveryId) {
        return seal(board, deliveryId, 2_000);
    }

    static Statement seal(String board, String deliveryId, long timestamp) {
        return Statement.newBuilder()
                .setBoard(board)
                .setDeliveryId(deliveryId)
                .setKind(StatementKind.BOARD_SEALED)
                .setStatementTimestamp(timestamp)
                .setSenderName("back-office")
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                .build();
    }

    /** The board's checkpoint notes by size. */
    static java.util.SortedMap<Long, String> checkpointNotes(String url, String board) throws Exception {
        DatabaseLogin db = org.electorallog.infra.SharedStack.get().database();
        java.util.SortedMap<Long, String> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password());
                PreparedStatement ps = c.prepareStatement("SELECT k.size, k.note FROM checkpoints k JOIN boards b "
                        + "USING (board_id) WHERE b.name = ? ORDER BY k.size")) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), rs.getString(2));
                }
            }
        }
        return out;
    }

    static List<Long> checkpointSizes(String url, String board) throws Exception {
        DatabaseLogin db = org.electorallog.infra.SharedStack.get().database();
        List<Long> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password());
                PreparedStatement ps = c.prepareStatement("SELECT k.size FROM checkpoints k JOIN boards b "
                        + "USING (board_id) WHERE b.name = ? ORDER BY k.size")) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        }
        return out;
    }

    static short kindOf(Connection c, BoardState s, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT kind FROM records WHERE board_id = ? AND id = ?")) {
            ps.setShort(1, s.board().id());
            ps.setLong(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "record " + id);
                return rs.getShort(1);
            }
        }
    }
}
