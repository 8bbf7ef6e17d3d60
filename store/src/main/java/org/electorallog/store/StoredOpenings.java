package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.electorallog.statement.ProjectedOpenings;

/**
 * The openings of records in the committed form (store V21 records.openings, docs/personal-data.md
 * "The projection"), as statement {@link ProjectedOpenings} stores them: written with the record by the
 * projector, read here with the record's user ID, username and error columns by the record view
 * (the audit reads them with its pages: {@link Records#AUDIT_PAGE_SQL}), cleared by erasure
 * ({@link Erasure}); streamed with their statements for an export's personal view ({@link
 * #statements}).
 */
public final class StoredOpenings {
    private static final String OF_RECORD =
            "SELECT openings, user_id, username, error FROM records WHERE board_id = ? AND id = ?";

    private StoredOpenings() {}

    /** The openings of one record, values included; empty when it has none (format 1, or erased). */
    public static List<Opening> of(Connection c, short boardId, long recordId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(OF_RECORD)) {
            ps.setShort(1, boardId);
            ps.setLong(2, recordId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getBytes(1) == null) {
                    return List.of();
                }
                try {
                    return ProjectedOpenings.decode(rs.getBytes(1), columns(rs, 2));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            "the stored openings of record " + recordId + ": " + e.getMessage(), e);
                }
            }
        }
    }

    /** What an opened pass sees: a record's ID, its canonical statement and its openings (empty: none held). */
    @FunctionalInterface
    public interface OpenedSink {
        void accept(long id, byte[] statement, List<Opening> openings) throws SQLException;
    }

    /**
     * The canonical statements of records [from, to) in ID order (primary key) with the openings
     * still held of each (an export's personal view, issue 63); openings that do not decode are
     * thrown, naming the record (the audit names it too: OPENING_MISMATCH).
     */
    public static void statements(Connection c, short boardId, long from, long to, OpenedSink sink)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT r.id, " + RecordStatements.READ_COLUMNS
                + ", r.openings, r.user_id, r.username, r.error FROM records r " + RecordStatements.JOIN_BOARD
                + " WHERE r.board_id = ? AND r.id >= ? AND r.id < ? ORDER BY r.id")) {
            ps.setFetchSize(10_000); // a cursor where the caller's transaction allows one: a whole board is long
            RecordStatements.inBinary(ps);
            ps.setShort(1, boardId);
            ps.setLong(2, from);
            ps.setLong(3, to);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long id = rs.getLong(1);
                    byte[] stored = rs.getBytes(8);
                    List<Opening> openings;
                    try {
                        openings = stored == null ? List.of() : ProjectedOpenings.decode(stored, columns(rs, 9));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(
                                "the stored openings of record " + id + ": " + e.getMessage()
                                        + " (run electoral-log audit)",
                                e);
                    }
                    sink.accept(id, RecordStatements.canonical(rs, 2), openings);
                }
            }
        }
    }

    private static ProjectedOpenings.Columns columns(ResultSet rs, int first) throws SQLException {
        return new ProjectedOpenings.Columns(rs.getString(first), rs.getString(first + 1), rs.getString(first + 2));
    }
}
