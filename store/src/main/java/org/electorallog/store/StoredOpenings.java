package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.PersonalOpenings.Opening;

/**
 * The openings of records in the committed form (V19 personal_openings, docs/personal-data.md):
 * written by the projector in the batch transaction, read by the record view and the audit,
 * deleted by erasure.
 */
public final class StoredOpenings {
    private static final String INSERT = "INSERT INTO personal_openings (board_id, record_id, path, salt, value) "
            + "SELECT ?, r, p, s, v FROM unnest(?::bigint[], ?::text[], ?::bytea[], ?::text[]) AS o(r, p, s, v)";
    private static final String RANGE = "SELECT record_id, path, salt, value FROM personal_openings "
            + "WHERE board_id = ? AND record_id >= ? AND record_id < ? ORDER BY record_id, path";
    private static final String OF_RECORD =
            "SELECT path, salt, value FROM personal_openings WHERE board_id = ? AND record_id = ? ORDER BY path";

    private StoredOpenings() {}

    /** One record's opening. */
    public record Row(long recordId, Opening opening) {}

    /** Stores {@code rows} of board {@code boardId}, in one statement. */
    public static void insert(Connection c, short boardId, List<Row> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        Long[] ids = new Long[rows.size()];
        String[] paths = new String[rows.size()];
        byte[][] salts = new byte[rows.size()][];
        String[] values = new String[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            ids[i] = r.recordId();
            paths[i] = r.opening().path();
            salts[i] = r.opening().salt();
            values[i] = r.opening().value();
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setShort(1, boardId);
            ps.setArray(2, c.createArrayOf("bigint", ids));
            ps.setArray(3, c.createArrayOf("text", paths));
            ps.setArray(4, c.createArrayOf("bytea", salts));
            ps.setArray(5, c.createArrayOf("text", values));
            ps.executeUpdate();
        }
    }

    /** The openings of the records {@code start} to {@code end - 1} (the audit's page), by record. */
    public static Map<Long, List<Opening>> range(Connection c, short boardId, long start, long end)
            throws SQLException {
        Map<Long, List<Opening>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(RANGE)) {
            ps.setShort(1, boardId);
            ps.setLong(2, start);
            ps.setLong(3, end);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getLong(1), x -> new ArrayList<>())
                            .add(new Opening(rs.getString(2), rs.getBytes(3), rs.getString(4)));
                }
            }
        }
        return out;
    }

    /** The openings of one record, by path; empty when it has none (format 1, or erased). */
    public static List<Opening> of(Connection c, short boardId, long recordId) throws SQLException {
        List<Opening> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(OF_RECORD)) {
            ps.setShort(1, boardId);
            ps.setLong(2, recordId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Opening(rs.getString(1), rs.getBytes(2), rs.getString(3)));
                }
            }
        }
        return out;
    }
}
