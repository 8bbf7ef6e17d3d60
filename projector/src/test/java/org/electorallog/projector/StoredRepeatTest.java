package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.store.LogWriter;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.ProjectionException;
import org.junit.jupiter.api.Test;

/**
 * Decision 83: a batch is written without looking its delivery IDs up; one already stored makes
 * PostgreSQL's unique index refuse the batch, which is recognised, and written again with the
 * lookup (the repeat dropped and counted), as are the next batches for a while. A repeat of the same
 * statement is never stored twice and never dead-lettered; a repeat with other content is refused.
 */
class StoredRepeatTest {
    private static final StatementCodec CODEC = StatementCodec.embedded();
    private static final String BOARD = "repeats";

    @Test
    void aStoredRepeatRefusesTheBatchWhichIsThenWrittenWithALookupAndTheNextBatchesLookUpFirst() throws Exception {
        ProjectorHarness h = new ProjectorHarness("repeats", 1);
        String url = h.createDatabase("repeats_" + System.nanoTime());
        DatabaseLogin a = h.stack.database();
        try (HikariDataSource db = ProjectionDatabase.pool(url, a.user(), a.password(), 2, "repeats-test")) {
            Migrations.apply(db);
            BoardWriter writer = new BoardWriter("test/", SignaturePolicy.none());
            long[] offset = {0};

            // a first batch: nothing stored, nothing looked up, all written
            assertEquals(new Share(3, 0, List.of()), write(db, writer, batch(offset, "a", "b", "c")));

            // a stored ID comes again in a batch that does not look it up: the unique index refuses the batch
            ProjectionException refused =
                    assertThrows(ProjectionException.class, () -> write(db, writer, batch(offset, "d", "b", "e")));
            assertTrue(writer.metStoredRepeat(refused), "the refusal is the stored delivery ID: " + refused);
            assertEquals(3, rows(db), "the refused batch left nothing");

            // the same batch again (the caller's retry): looked up, the repeat dropped and counted
            offset[0] -= 3;
            assertEquals(new Share(2, 1, List.of()), write(db, writer, batch(offset, "d", "b", "e")));
            // the next batches look up first: a repeat in them is dropped without a refusal
            for (int i = 0; i < BoardWriter.LOOKUP_BATCHES_AFTER_A_STORED_REPEAT; i++) {
                assertEquals(
                        new Share(1, 1, List.of()),
                        write(db, writer, batch(offset, "a", "f-" + i)),
                        "batch " + i + " after the repeat");
            }
            // then the writer writes first again
            ProjectionException again =
                    assertThrows(ProjectionException.class, () -> write(db, writer, batch(offset, "c", "g")));
            assertTrue(writer.metStoredRepeat(again));
            assertEquals(5 + BoardWriter.LOOKUP_BATCHES_AFTER_A_STORED_REPEAT, rows(db), "every ID stored once");

            // a batch that looked its IDs up and still met the index is not written again: not this case
            writer.batchBegan();
            assertFalse(writer.metStoredRepeat(again), "the batch looked its IDs up");
            BoardWriter fresh = new BoardWriter("test/", SignaturePolicy.none());
            fresh.batchBegan();
            assertFalse(fresh.metStoredRepeat(new SQLException("lost", "08006")), "a lost connection is not a repeat");
        }
    }

    /**
     * Issue 61: a repeated delivery ID is a duplicate only when it is the same statement; with other
     * content (here another statement time) it is refused DELIVERY_ID_REUSED, whether the first copy
     * is stored or earlier in the same batch, and the first copy stands.
     */
    @Test
    void aRepeatWithOtherContentIsRefusedAndTheFirstStands() throws Exception {
        ProjectorHarness h = new ProjectorHarness("reused", 1);
        String url = h.createDatabase("reused_" + System.nanoTime());
        DatabaseLogin a = h.stack.database();
        try (HikariDataSource db = ProjectionDatabase.pool(url, a.user(), a.password(), 2, "reused-test")) {
            Migrations.apply(db);
            BoardWriter writer = new BoardWriter("test/", SignaturePolicy.none());
            long[] offset = {0};
            assertEquals(new Share(2, 0, List.of()), write(db, writer, batch(offset, "seal:x", "v-1")));

            // the same ID, other content, stored before: refused (after the unique index sent the batch
            // back to be written with the lookup, as a plain repeat is)
            List<PendingEvent> squat = batchAt(offset, 1_767_225_700_000L, "v-2", "seal:x");
            ProjectionException first = assertThrows(ProjectionException.class, () -> write(db, writer, squat));
            assertTrue(writer.metStoredRepeat(first));
            Share s = write(db, writer, squat);
            assertEquals(1, s.written(), "v-2");
            assertEquals(0, s.duplicates(), "not counted a duplicate");
            assertEquals(1, s.refused().size(), s.toString());
            assertEquals(
                    BadEventException.Reason.DELIVERY_ID_REUSED,
                    s.refused().get(0).reason());
            assertTrue(s.refused().get(0).message().contains("'seal:x' is taken by record 0"), s.toString());

            // the same statement again is still a duplicate
            assertEquals(new Share(0, 1, List.of()), write(db, writer, batch(offset, "seal:x")));

            // two copies in one batch, the second with other content: the second refused
            List<PendingEvent> twice = new ArrayList<>(batch(offset, "v-3"));
            twice.addAll(batchAt(offset, 1_767_225_800_000L, "v-3"));
            Share t = write(db, writer, twice);
            assertEquals(1, t.written());
            assertEquals(0, t.duplicates());
            assertEquals(
                    BadEventException.Reason.DELIVERY_ID_REUSED,
                    t.refused().get(0).reason());
            assertEquals(4, rows(db), "seal:x, v-1, v-2, v-3: each once, the first copy's");
        }
    }

    /** One batch in its own transaction, committed when the board's share is written, as the projector does. */
    /** What a board's share did, without the board. */
    private record Share(int written, int duplicates, List<BoardWriter.Refused> refused) {}

    private static Share write(HikariDataSource db, BoardWriter writer, List<PendingEvent> events) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                writer.batchBegan();
                // a board loaded afresh for every batch, as after the projector's rollback
                BoardProjection board = writer.load(LogWriter.on(c), BOARD).orElse(null);
                BoardWriter.Written w = writer.write(LogWriter.on(c), BOARD, board, events);
                c.commit();
                return new Share(w.written(), w.duplicates(), w.refused());
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** A batch of statements whose content is fixed by their delivery ID: a repeat is a retry. */
    private static List<PendingEvent> batch(long[] offset, String... deliveryIds) throws Exception {
        return batchAt(offset, 1_767_225_600_000L, deliveryIds);
    }

    /** A batch of statements stating the time {@code millis}: another time is other content. */
    private static List<PendingEvent> batchAt(long[] offset, long millis, String... deliveryIds) throws Exception {
        List<PendingEvent> out = new ArrayList<>();
        for (String id : deliveryIds) {
            byte[] value = CODEC.encode(Envelope.newBuilder()
                    .setStatement(ProjectorHarness.statement(BOARD, id, millis))
                    .build());
            out.add(new PendingEvent(CODEC.decode(value), 0, offset[0]++, 1_767_225_600_000L, BOARD, value, null));
        }
        return out;
    }

    private static long rows(HikariDataSource db) throws SQLException {
        try (Connection c = db.getConnection();
                ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM records")) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }
}
