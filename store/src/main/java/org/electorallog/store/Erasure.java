package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Erasing personal values (docs/personal-data.md "Erasure"), in the caller's transaction: the
 * records keep their statements, leaves and commitments; their opened values (the user ID,
 * username and error columns) and openings (V21 records.openings) are set to NULL. By days, the board's data keys of those
 * days are erased first (their rows kept, so a replay knows), which waits for any batch still
 * writing values opened with them ({@link SqlDataKeys#erasedAmong}); by user, only the projection
 * changes and the topic's copy stays readable with its day's key until that key is erased.
 */
public final class Erasure {
    private static final String ERASE_KEYS = "UPDATE personal_keys.data_keys SET key = NULL, erased = now() "
            + "WHERE board = ? AND day BETWEEN ? AND ? AND erased IS NULL RETURNING key_id";
    private static final String CLEAR_DAYS =
            "UPDATE records SET user_id = NULL, username = NULL, error = NULL, openings = NULL "
                    + "WHERE board_id = ? AND statement_ts >= ? AND statement_ts < ? AND openings IS NOT NULL";
    private static final String CLEAR_USER =
            "UPDATE records SET user_id = NULL, username = NULL, error = NULL, openings = NULL "
                    + "WHERE board_id = ? AND user_id = ? AND openings IS NOT NULL";
    private static final String IN_THE_CLEAR = "SELECT count(*) FROM records WHERE board_id = ? AND user_id = ?";
    private static final String DAYS_IN_THE_CLEAR = "SELECT count(*) FROM records WHERE board_id = ? "
            + "AND statement_ts >= ? AND statement_ts < ? AND (user_id IS NOT NULL OR username IS NOT NULL)";

    private Erasure() {}

    /**
     * What an erasure did: the data keys it erased, the records whose values and openings it
     * deleted, and the records it could not erase (format 1: the values are in the statement).
     */
    public record Result(List<String> keysErased, long records, long inTheClear) {
        public Result {
            keysErased = List.copyOf(keysErased);
        }
    }

    /** Erases board {@code boardId}'s ({@code board}'s) personal values of the UTC days {@code from} to {@code to}. */
    public static Result days(Connection c, short boardId, String board, LocalDate from, LocalDate to)
            throws SQLException {
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("the last day " + to + " is before the first " + from);
        }
        List<String> keys = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(ERASE_KEYS)) {
            ps.setString(1, board);
            ps.setObject(2, from);
            ps.setObject(3, to);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keys.add(rs.getString(1));
                }
            }
        }
        Timestamp start = Timestamp.from(from.atStartOfDay(ZoneOffset.UTC).toInstant());
        Timestamp end =
                Timestamp.from(to.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
        long records;
        try (PreparedStatement ps = c.prepareStatement(CLEAR_DAYS)) {
            ps.setShort(1, boardId);
            ps.setTimestamp(2, start);
            ps.setTimestamp(3, end);
            records = ps.executeUpdate();
        }
        long inTheClear;
        try (PreparedStatement ps = c.prepareStatement(DAYS_IN_THE_CLEAR)) {
            ps.setShort(1, boardId);
            ps.setTimestamp(2, start);
            ps.setTimestamp(3, end);
            inTheClear = count(ps);
        }
        return new Result(keys, records, inTheClear);
    }

    /** Erases the personal values of the records of {@code userId} on board {@code boardId}. */
    public static Result user(Connection c, short boardId, String userId) throws SQLException {
        long records;
        try (PreparedStatement ps = c.prepareStatement(CLEAR_USER)) {
            ps.setShort(1, boardId);
            ps.setString(2, userId);
            records = ps.executeUpdate();
        }
        long inTheClear;
        try (PreparedStatement ps = c.prepareStatement(IN_THE_CLEAR)) {
            ps.setShort(1, boardId);
            ps.setString(2, userId);
            inTheClear = count(ps);
        }
        return new Result(List.of(), records, inTheClear);
    }

    private static long count(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("a count returned no row");
            }
            return rs.getLong(1);
        }
    }
}
