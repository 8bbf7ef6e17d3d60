package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The reads the load-test harness makes to choose its requests and check a burst: a record with its
 * voter's ballot, and the records a burst wrote. Each is one index probe or range (the primary key;
 * the user index for a voter's vote), never a walk of the board.
 */
public final class RecordSamples {
    private RecordSamples() {}

    /** A record and, for a voter, the ballot and election of their cast vote (kind 1). */
    public record Sample(
            long id,
            String userId,
            String username,
            Instant created,
            Instant statementTime,
            String ballotId,
            String electionId) {}

    /** Record {@code id} of a board with its voter's vote; the primary key and one user index probe. */
    public static final String SAMPLE_SQL = "SELECT r.id, r.user_id, r.username, r.created, r.statement_ts, "
            + "(SELECT ballot_id FROM records v WHERE v.board_id = r.board_id AND v.user_id = r.user_id AND v.kind = 1 LIMIT 1), "
            + "(SELECT election_id FROM records v WHERE v.board_id = r.board_id AND v.user_id = r.user_id AND v.kind = 1 LIMIT 1) "
            + "FROM records r WHERE r.board_id = ? AND r.id = ?";

    /** Record {@code id} of a board, with its voter's ballot when the voter has cast one. */
    public static Optional<Sample> sample(Connection c, short boardId, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SAMPLE_SQL)) {
            ps.setShort(1, boardId);
            ps.setLong(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Sample(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getTimestamp(4).toInstant(),
                        rs.getTimestamp(5).toInstant(),
                        rs.getString(6),
                        rs.getString(7)));
            }
        }
    }

    /** A record's user ID and record ID. */
    public record UserRecord(String userId, long id) {}

    /**
     * The records of a board from ID {@code fromId} on whose user ID starts with {@code prefix}, every
     * copy of one included (a burst's records: the primary key's range after the board's size before it).
     */
    public static List<UserRecord> byUserPrefix(Connection c, short boardId, long fromId, String prefix)
            throws SQLException {
        List<UserRecord> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT user_id, id FROM records WHERE board_id = ? AND id >= ? AND user_id LIKE ? || '%'")) {
            ps.setShort(1, boardId);
            ps.setLong(2, fromId);
            ps.setString(3, prefix);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new UserRecord(rs.getString(1), rs.getLong(2)));
                }
            }
        }
        return out;
    }
}
