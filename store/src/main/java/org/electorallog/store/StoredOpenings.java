package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.PersonalOpenings;
import org.electorallog.core.PersonalOpenings.Opening;

/**
 * The openings of records in the committed form (V19 personal_openings, docs/personal-data.md),
 * one row a record, encoded as {@link PersonalOpenings#encode}: written by the projector in the
 * batch transaction, read by the record view and the audit, deleted by erasure ({@link Erasure}).
 */
public final class StoredOpenings {
    private static final String INSERT = "INSERT INTO personal_openings (board_id, record_id, openings) "
            + "SELECT ?, r, o FROM unnest(?::bigint[], ?::bytea[]) AS u(r, o)";
    private static final String RANGE = "SELECT record_id, openings FROM personal_openings "
            + "WHERE board_id = ? AND record_id >= ? AND record_id < ?";
    private static final String OF_RECORD =
            "SELECT openings FROM personal_openings WHERE board_id = ? AND record_id = ?";

    private StoredOpenings() {}

    /** One record's openings. */
    public record Row(long recordId, List<Opening> openings) {
        public Row {
            openings = List.copyOf(openings);
        }
    }

    /** Stores {@code rows} of board {@code boardId}, in one statement. */
    public static void insert(Connection c, short boardId, List<Row> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        Long[] ids = new Long[rows.size()];
        byte[][] encoded = new byte[rows.size()][];
        for (int i = 0; i < rows.size(); i++) {
            ids[i] = rows.get(i).recordId();
            encoded[i] = PersonalOpenings.encode(rows.get(i).openings());
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setShort(1, boardId);
            ps.setArray(2, c.createArrayOf("bigint", ids));
            ps.setArray(3, c.createArrayOf("bytea", encoded));
            ps.executeUpdate();
        }
    }

    /**
     * The openings of the records {@code start} to {@code end - 1} (the audit's page), by record, as
     * stored: the audit decodes them, so that a row that does not decode is a finding, not a failure.
     */
    public static Map<Long, byte[]> encodedRange(Connection c, short boardId, long start, long end)
            throws SQLException {
        Map<Long, byte[]> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(RANGE)) {
            ps.setShort(1, boardId);
            ps.setLong(2, start);
            ps.setLong(3, end);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), rs.getBytes(2));
                }
            }
        }
        return out;
    }

    /** The openings of one record, by path; empty when it has none (format 1, or erased). */
    public static List<Opening> of(Connection c, short boardId, long recordId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(OF_RECORD)) {
            ps.setShort(1, boardId);
            ps.setLong(2, recordId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? decode(recordId, rs.getBytes(1)) : List.of();
            }
        }
    }

    private static List<Opening> decode(long recordId, byte[] encoded) {
        try {
            return PersonalOpenings.decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the stored openings of record " + recordId + ": " + e.getMessage(), e);
        }
    }
}
