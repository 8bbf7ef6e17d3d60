package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Hashes;
import org.electorallog.core.SigningKey;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.store.Boards;
import org.electorallog.store.Migrations;
import org.electorallog.store.Projection;
import org.electorallog.store.ProjectionDatabase;
import org.junit.jupiter.api.Test;

/** The warm-up at start (decision 75) compiles the path of good events: its statements must be ones the projector accepts. */
class ProjectorWarmUpTest {
    private final StatementCodec codec = StatementCodec.embedded();
    private final SignaturePolicy sender = SignaturePolicy.parse("SENDER", ".*", null, "OFF");

    @Test
    void everyMadeUpStatementIsOneTheProjectorAcceptsSignedOrNot() throws BadEventException {
        ProjectorWarmUp signed = new ProjectorWarmUp(codec, true);
        Set<String> kinds = new HashSet<>();
        Set<String> deliveryIds = new HashSet<>();
        for (byte[] m : signed.messages()) {
            DecodedStatement st = codec.decode(m); // the statement rules, as the stream thread applies them
            sender.check(st); // signed by its sender key: verifies
            kinds.add(st.kind());
            deliveryIds.add(st.deliveryId());
            assertNotNull(st.senderSignature());
        }
        // log-ins and cast votes, as in an election, every one a statement of its own
        assertEquals(Set.of(StatementKind.IDP_USER_EVENT.name(), StatementKind.CAST_VOTE.name()), kinds);
        assertEquals(ProjectorWarmUp.BATCH, deliveryIds.size());
        for (byte[] m : new ProjectorWarmUp(codec, false).messages()) {
            DecodedStatement st = codec.decode(m);
            assertNull(st.senderSignature());
            assertEquals(
                    BadEventException.Reason.UNSIGNED,
                    assertThrows(BadEventException.class, () -> sender.check(st))
                            .reason());
        }
    }

    @Test
    void aRunProjectsExactlyTheStatementsAskedForInBatches() {
        ProjectorWarmUp w = new ProjectorWarmUp(codec, true);
        assertEquals(0, w.run(0));
        // one full batch and a partial one
        assertEquals(ProjectorWarmUp.BATCH + 7, w.run(ProjectorWarmUp.BATCH + 7));
        assertEquals(3, new ProjectorWarmUp(codec, false).run(3));
    }

    /**
     * Decision 81: the warm-up writes its batches with the board code the stream thread uses, and keeps
     * nothing. Every table it writes is empty afterwards, and no board ID is taken: the first real board
     * gets ID 1, as in a database the warm-up never ran on.
     */
    @Test
    void theWritesOfTheWarmUpAreRolledBackAndLeaveNoTrace() throws Exception {
        ProjectorHarness h = new ProjectorHarness("warmup", 1);
        String url = h.createDatabase("warmup_" + System.nanoTime());
        DatabaseLogin a = h.stack.database();
        try (HikariDataSource db = ProjectionDatabase.pool(url, a.user(), a.password(), 2, "warm-up-test")) {
            Migrations.apply(db);
            ProjectorWarmUp w = new ProjectorWarmUp(codec, true);
            // every round's statements written (write throws when one is dropped or refused)
            assertEquals(3L * ProjectorWarmUp.BATCH, w.write(Projection.over(db), new BoardWriter("test/", sender), 3));
            try (Connection c = db.getConnection()) {
                for (String table : List.of(
                        "boards",
                        "board_state",
                        "records",
                        "senders",
                        "tiles",
                        "counters",
                        "hourly_counts",
                        "checkpoints")) {
                    assertEquals(0, count(c, "SELECT count(*) FROM " + table), table + " after the warm-up");
                }
                c.setAutoCommit(false); // a board is created in a transaction (it locks boards)
                assertEquals(
                        1,
                        Boards.create(c, "first", "test/first", 1_767_225_600_000L, Hashes.emptyRoot())
                                .id(),
                        "the first board after the warm-up takes the first board ID");
                c.rollback();
            }
            assertEquals(0, w.write(Projection.over(db), new BoardWriter("test/", sender), 0));
            assertEquals(2, ProjectorWarmUp.writeRounds(2 * ProjectorWarmUp.BATCH + 7));
        }
    }

    /**
     * Decision 81: the topic's last events are run beside the made-up statements, decoded by the codec
     * given for them; one that does not decode is left out, and one whose signature does not verify
     * (dead-lettered when it was projected) does not stop the warm-up, as a made-up one would.
     */
    @Test
    void recentEventsAreRunAndThoseThatDoNotDecodeAreLeftOut() {
        SigningKey key = SigningKey.generate();
        org.electorallog.schemas.avro.Statement good = ProjectorHarness.statement("b", "recent-1", 1_767_225_600_000L);
        good.setSenderPublicKey(java.nio.ByteBuffer.wrap(key.publicKey()));
        byte[] signed = codec.encode(Envelope.newBuilder()
                .setStatement(good)
                .setSenderSignature(java.nio.ByteBuffer.wrap(key.sign(CanonicalStatement.encode(good))))
                .build());
        byte[] badSignature = codec.encode(Envelope.newBuilder()
                .setStatement(good)
                .setSenderSignature(java.nio.ByteBuffer.wrap(key.sign(new byte[] {1, 2, 3})))
                .build());
        byte[] garbage = {0, 0, 0, 0, 1, 42};
        ProjectorWarmUp w = new ProjectorWarmUp(codec, true, codec, List.of(signed, garbage, badSignature));
        List<byte[]> messages = w.messages();
        assertEquals(ProjectorWarmUp.BATCH + 2, messages.size(), "the made-up ones and the two that decode");
        assertArrayEquals(signed, messages.get(ProjectorWarmUp.BATCH));
        assertArrayEquals(badSignature, messages.get(ProjectorWarmUp.BATCH + 1));
        // every statement twice over, the recent ones among them, without a failure
        assertEquals(2L * messages.size(), w.run(2L * messages.size()));
        assertEquals(ProjectorWarmUp.WRITE_ROUNDS, ProjectorWarmUp.writeRounds(20_000));
        assertEquals(20_000, ProjectorWarmUp.recentEvents(20_000));
    }

    @Test
    void aScratchBoardTakesOnlyANegativeId() {
        assertThrows(
                IllegalArgumentException.class,
                () -> Boards.createScratch(null, (short) 0, "b", "o", 0, Hashes.emptyRoot()));
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            if (!rs.next()) {
                throw new AssertionError("no row: " + sql);
            }
            return rs.getLong(1);
        }
    }
}
