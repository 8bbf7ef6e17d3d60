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
import java.util.Map;
import org.electorallog.statement.DataKeys;

/**
 * Erasing personal values (docs/personal-data.md "Erasure"), in the caller's transaction: the
 * records keep their statements, leaves and commitments; their opened values (the user ID,
 * username and error columns) and openings (V21 records.openings) are set to NULL. By days, the board's data keys of those
 * days are erased first (their rows kept, so a replay knows), which waits for any batch still
 * writing values opened with them ({@link SqlDataKeys#erasedAmong}); by user, the projection's
 * values go and the statements are listed so that no replay stores them again, while the topic's
 * copy stays readable with its day's key until that key is erased.
 */
public final class Erasure {
    /** By key ID, the name producers and the projector use (a V18 row's board column may say otherwise). */
    private static final String ERASE_KEYS = "UPDATE personal_keys.data_keys SET key = NULL, wrapped = NULL, "
            + "kek_id = NULL, erased = now() WHERE key_id = ANY(?::text[]) AND erased IS NULL RETURNING key_id";

    private static final String ERASED_STATEMENTS = "INSERT INTO personal_keys.erased_statements (leaf_hash, board) "
            + "SELECT unnest(?::bytea[]), ? ON CONFLICT DO NOTHING";
    private static final String USER_RECORDS =
            "SELECT id FROM records WHERE board_id = ? AND user_id = ? AND openings IS NOT NULL";
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
        if (from.plusYears(100).isBefore(to)) {
            throw new IllegalArgumentException("the days " + from + " to " + to + " span more than 100 years");
        }
        List<String> ids = new ArrayList<>();
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            ids.add(DataKeys.id(board, d));
        }
        List<String> keys = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(ERASE_KEYS)) {
            ps.setArray(1, c.createArrayOf("text", ids.toArray(new String[0])));
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

    /**
     * Erases the personal values of the records of {@code userId} on board {@code boardId} ({@code
     * board}), and keeps their leaf hashes in {@code personal_keys.erased_statements} so that the
     * projector never stores those values again, in a replay or a rebuild (V24). The day's key stays:
     * the topic's copy is readable with it until that day is erased.
     */
    public static Result user(Connection c, short boardId, String board, String userId) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(USER_RECORDS)) {
            ps.setShort(1, boardId);
            ps.setString(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        Map<Long, byte[]> leaves = Tiles.leaves(c, boardId, ids);
        if (leaves.size() != ids.size()) {
            throw new SQLException("board " + board + ": " + (ids.size() - leaves.size())
                    + " of the user's records have no leaf in their tile; audit the board before erasing");
        }
        try (PreparedStatement ps = c.prepareStatement(ERASED_STATEMENTS)) {
            ps.setArray(1, c.createArrayOf("bytea", leaves.values().toArray(new byte[0][])));
            ps.setString(2, board);
            ps.executeUpdate();
        }
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
