package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/** Table {@code record_details} (V11): body fields analysts read, for the records whose kind has them. */
public final class RecordDetails {
    private RecordDetails() {}

    /** The details of one record. */
    public record Row(long id, String eventType, String error) {}

    /** Inserts the details of a board's new records (in the batch transaction, with the records). */
    public static void insert(Connection c, short boardId, List<Row> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        Long[] ids = new Long[rows.size()];
        String[] types = new String[rows.size()];
        String[] errors = new String[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            ids[i] = rows.get(i).id();
            types[i] = rows.get(i).eventType();
            errors[i] = rows.get(i).error();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO record_details (board_id, id, event_type, error) SELECT ?, u.id, u.event_type, u.error "
                        + "FROM unnest(?::bigint[], ?::text[], ?::text[]) AS u(id, event_type, error)")) {
            ps.setShort(1, boardId);
            ps.setArray(2, c.createArrayOf("bigint", ids));
            ps.setArray(3, c.createArrayOf("text", types));
            ps.setArray(4, c.createArrayOf("text", errors));
            ps.executeUpdate();
        }
    }
}
