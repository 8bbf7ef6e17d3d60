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
import org.electorallog.infra.DatabaseAddress;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.junit.jupiter.api.Test;

/**
 * Decision 83: a batch is written without looking its delivery IDs up; one already stored makes
 * PostgreSQL's unique index refuse the batch, which is recognised, and written again with the
 * lookup (the repeat dropped and counted), as are the next batches for a while. A repeat is never
 * stored twice and never dead-lettered.
 */
class StoredRepeatTest {
    private static final StatementCodec CODEC = StatementCodec.embedded();
    private static final String BOARD = "repeats";

    @Test
    void aStoredRepeatRefusesTheBatchWhichIsThenWrittenWithALookupAndTheNextBatchesLookUpFirst() throws Exception {
        ProjectorHarness h = new ProjectorHarness("repeats", 1);
        String url = h.createDatabase("repeats_" + System.nanoTime());
        DatabaseAddress a = h.stack.database();
        try (HikariDataSource db = ProjectionDatabase.pool(url, a.user(), a.password(), 2, "repeats-test")) {
            Migrations.apply(db);
            BoardWriter writer = new BoardWriter("test/", SignaturePolicy.none());
            long[] offset = {0};

            // a first batch: nothing stored, nothing looked up, all written
            assertEquals(new Share(3, 0, List.of()), write(db, writer, batch(offset, "a", "b", "c")));

            // a stored ID comes again in a batch that does not look it up: the unique index refuses the batch
            SQLException refused =
                    assertThrows(SQLException.class, () -> write(db, writer, batch(offset, "d", "b", "e")));
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
            SQLException again = assertThrows(SQLException.class, () -> write(db, writer, batch(offset, "c", "g")));
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

    /** One batch in its own transaction, committed when the board's share is written, as the projector does. */
    /** What a board's share did, without the board. */
    private record Share(int written, int duplicates, List<BoardWriter.Refused> refused) {}

    private static Share write(HikariDataSource db, BoardWriter writer, List<PendingEvent> events) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                writer.batchBegan();
                // a board loaded afresh for every batch, as after the projector's rollback
                BoardProjection board = writer.load(c, BOARD).orElse(null);
                BoardWriter.Written w = writer.write(c, BOARD, board, events);
                c.commit();
                return new Share(w.written(), w.duplicates(), w.refused());
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    private static List<PendingEvent> batch(long[] offset, String... deliveryIds) throws Exception {
        List<PendingEvent> out = new ArrayList<>();
        for (String id : deliveryIds) {
            byte[] value = CODEC.encode(Envelope.newBuilder()
                    .setStatement(ProjectorHarness.statement(BOARD, id, 1_767_225_600_000L + offset[0]))
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
