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
 * ({@link Erasure}).
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

    private static ProjectedOpenings.Columns columns(ResultSet rs, int first) throws SQLException {
        return new ProjectedOpenings.Columns(rs.getString(first), rs.getString(first + 1), rs.getString(first + 2));
    }
}
