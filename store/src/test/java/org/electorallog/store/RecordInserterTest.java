package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/**
 * The two ways rows go into records: the binary COPY stores exactly what the typed-array INSERT
 * stores, field by field, over rows that fill several of the driver's 64 KB messages; and
 * PostgreSQL's refusal of a stored delivery key in the COPY's last rows comes back as such, which
 * the projector relies on since it writes before it looks up (decision 83).
 */
class RecordInserterTest {
    private static final DatabaseLogin DB = SharedStack.get().database();
    /** Rows of about 1 KB: several of the driver's 64 KB messages. */
    private static final int ROWS = 700;

    @Test
    void theStreamedCopyStoresWhatTheInsertStoresAndAStoredKeyIsRecognised() throws Exception {
        String url = MigrationsTest.createDatabase("inserter_" + System.nanoTime());
        try (HikariDataSource ds = ProjectionDatabase.pool(url, DB.user(), DB.password(), 2, "inserter-test")) {
            Migrations.apply(ds);
            try (Connection c = ds.getConnection()) {
                short copied = Boards.create(c, "copied", "log.example/copied", 0L, new byte[32])
                        .id();
                short inserted = Boards.create(c, "inserted", "log.example/inserted", 0L, new byte[32])
                        .id();
                int sender = Senders.intern(c, List.of(ByteBuffer.wrap(new byte[32])))
                        .values()
                        .iterator()
                        .next();
                RecordPartitions.cover(c, copied, 2 * ROWS);
                RecordPartitions.cover(c, inserted, ROWS);
                RecordInserter.BINARY_COPY.insert(c, rows(copied, sender, 0));
                RecordInserter.UNNEST.insert(c, rows(inserted, sender, 0));
                assertEquals(dump(c, inserted), dump(c, copied));
                assertEquals(ROWS, dump(c, copied).size());

                // the next rows, the last of which repeats a stored delivery ID
                List<RecordRow> next = new ArrayList<>(rows(copied, sender, ROWS));
                RecordRow last = next.get(ROWS - 1);
                next.set(ROWS - 1, withDeliveryId(last, "d-3"));
                c.setAutoCommit(false);
                SQLException refused =
                        assertThrows(SQLException.class, () -> RecordInserter.BINARY_COPY.insert(c, next));
                assertTrue(Deliveries.isStoredKey(refused), refused.toString());
                c.rollback();
                c.setAutoCommit(true);
                assertEquals(ROWS, dump(c, copied).size(), "nothing of the refused COPY stayed");
                // and the connection goes on: the rows without the repeat
                RecordInserter.BINARY_COPY.insert(c, next.subList(0, ROWS - 1));
                assertEquals(2 * ROWS - 1, dump(c, copied).size());
                assertFalse(Deliveries.isStoredKey(new SQLException("no", "23505")), "no constraint named");
            }
        }
    }

    private static List<RecordRow> rows(short board, int sender, long from) {
        List<RecordRow> out = new ArrayList<>();
        for (long i = from; i < from + ROWS; i++) {
            boolean odd = i % 2 == 1;
            byte[] statement = ("statement " + i + " " + "x".repeat(900)).getBytes(StandardCharsets.UTF_8);
            out.add(new RecordRow(
                    board,
                    i,
                    1_767_225_600_000L + i,
                    1_767_225_500_000L + i,
                    (short) (i % 7),
                    sender,
                    new IndexedFields(
                            "u-" + i, odd ? null : "name-" + i, "e-1", odd ? "a-ñ" : null, odd ? "b-" + i : null),
                    "d-" + i,
                    statement,
                    1,
                    (int) (i % 3),
                    1000 + i,
                    odd ? new byte[] {1, 2, 3} : null,
                    odd ? null : new byte[64],
                    odd ? "LOGIN" : null,
                    odd ? null : "denied"));
        }
        return out;
    }

    private static RecordRow withDeliveryId(RecordRow r, String deliveryId) {
        RecordContent x = r.content();
        return new RecordRow(
                r.boardId(),
                r.id(),
                r.createdMillis(),
                x.statementMillis(),
                x.kind(),
                r.senderId(),
                x.fields(),
                deliveryId,
                x.statement(),
                x.schemaId(),
                x.partition(),
                x.offset(),
                x.senderSignature(),
                x.systemSignature(),
                x.eventType(),
                x.error());
    }

    /** Every column but board_id, row by row in ID order, bytes shown as their contents. */
    private static List<List<String>> dump(Connection c, short board) throws SQLException {
        List<List<String>> out = new ArrayList<>();
        try (ResultSet rs =
                c.createStatement().executeQuery("SELECT * FROM records WHERE board_id = " + board + " ORDER BY id")) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    if (md.getColumnName(i).equals("board_id")) {
                        continue;
                    }
                    Object v = rs.getObject(i);
                    row.add(v instanceof byte[] b ? Arrays.toString(b) : String.valueOf(v));
                }
                out.add(row);
            }
        }
        return out;
    }
}
