package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.electorallog.statement.HeadsBoard;

/** Tables {@code boards} and {@code board_state} (V1): which boards exist, and each one's tree size and root. */
public final class Boards {
    private static final String STATE = "SELECT b.board_id, b.name, b.origin, s.size, s.root, s.last_created, "
            + "s.duplicates_dropped, s.sealed, s.committed_from FROM boards b JOIN board_state s USING (board_id)";

    private Boards() {}

    /** The board named {@code name} (boards_name_key), if any. */
    public static Optional<BoardRow> find(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT board_id, origin FROM boards WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new BoardRow(rs.getShort(1), name, rs.getString(2))) : Optional.empty();
            }
        }
    }

    /** The board named {@code name} with its state, if any. */
    public static Optional<BoardState> state(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(STATE + " WHERE b.name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(state(rs)) : Optional.empty();
            }
        }
    }

    /** Every board with its state, by name. */
    public static List<BoardState> all(Connection c) throws SQLException {
        List<BoardState> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(STATE + " ORDER BY b.name");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(state(rs));
            }
        }
        return out;
    }

    /**
     * Each board's head for the metrics: size, the size and age of its latest checkpoint (one
     * lateral primary-key probe a board into checkpoints) and the size the witness quorum vouches
     * for: its latest checkpoint witnessed on its own (one probe into the partial index
     * checkpoints_witnessed, V13) or, in HEADS witness mode, its newest checkpoint whose heads entry
     * is in the latest witnessed heads checkpoint (the board's checkpoints newest first, each one's
     * heads entry probed by its delivery key, as {@link HeadLinks#LINK_SQL} does), whichever is larger.
     */
    public static final String HEADS_SQL = "WITH h AS (SELECT b.board_id, (SELECT c.size FROM checkpoints c "
            + "WHERE c.board_id = b.board_id AND c.witnessed IS NOT NULL ORDER BY c.size DESC LIMIT 1) AS size "
            + "FROM boards b WHERE b.name = '" + HeadsBoard.NAME + "') "
            + "SELECT b.name, s.size, coalesce(k.size, 0), "
            + "extract(epoch FROM now() - k.signed), greatest(coalesce(w.size, 0), coalesce(l.size, 0)) "
            + "FROM boards b JOIN board_state s USING (board_id) "
            + "LEFT JOIN LATERAL (SELECT c.size, c.signed FROM checkpoints c WHERE c.board_id = b.board_id "
            + "ORDER BY c.size DESC LIMIT 1) k ON true "
            + "LEFT JOIN LATERAL (SELECT c.size FROM checkpoints c WHERE c.board_id = b.board_id "
            + "AND c.witnessed IS NOT NULL ORDER BY c.size DESC LIMIT 1) w ON true "
            + "LEFT JOIN LATERAL (SELECT c.size FROM h JOIN checkpoints c ON c.board_id = b.board_id "
            + "JOIN deliveries d ON d.key = board_delivery_key(h.board_id, 'head:' || b.name || ':' || c.size) "
            + "WHERE d.id < h.size ORDER BY c.size DESC LIMIT 1) l ON true ORDER BY b.name";

    /**
     * A board's head: its size, its latest checkpoint's size and age in seconds (null without one),
     * and the size the witness quorum vouches for, on its own or through the heads board (0 without
     * one).
     */
    public record Head(
            String name, long size, long checkpointedSize, Double checkpointAgeSeconds, long witnessedSize) {}

    /** Every board's head ({@link #HEADS_SQL}). */
    public static List<Head> heads(DataSource db) throws SQLException {
        List<Head> out = new ArrayList<>();
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement(HEADS_SQL);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                double age = rs.getDouble(4);
                Double ageOrNull = rs.wasNull() ? null : age;
                out.add(new Head(rs.getString(1), rs.getLong(2), rs.getLong(3), ageOrNull, rs.getLong(5)));
            }
        }
        return out;
    }

    /** Every board's name, in order. */
    public static List<String> names(DataSource db) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT name FROM boards ORDER BY name");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** Whether the database holds a projection with at least one board (false for an empty or unmigrated one). */
    public static boolean any(DataSource db) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT to_regclass('public.boards') IS NOT NULL");
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next() || !rs.getBoolean(1)) {
                return false;
            }
        }
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT EXISTS (SELECT 1 FROM boards)");
                ResultSet rs = ps.executeQuery()) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** The current tree size of a board. */
    public static long size(Connection c, short boardId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT size FROM board_state WHERE board_id = ?")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("board " + boardId + " has no board_state row", "XX000");
                }
                return rs.getLong(1);
            }
        }
    }

    /**
     * Creates a board with an empty tree under the next unused ID, 1 above the highest (V16). The
     * ID is taken inside the caller's transaction under a lock on boards that only board creation
     * takes, so a rolled-back creation gives its ID back and the IDs have no gaps: a sequence (as
     * before V16) lost a value with every rolled-back batch, and a sender could use the 32,767 IDs
     * up with batches that failed (issue 41). Past 32,767 PostgreSQL refuses the value (SQLSTATE
     * 22003), which dead-letters the statement that would have created the board. On a connection
     * in auto-commit mode (tools and tests) the creation is a transaction of its own.
     */
    public static BoardRow create(Connection c, String name, String origin, long createdMillis, byte[] emptyRoot)
            throws SQLException {
        if (!c.getAutoCommit()) {
            return createInTransaction(c, name, origin, createdMillis, emptyRoot);
        }
        c.setAutoCommit(false);
        try {
            BoardRow b = createInTransaction(c, name, origin, createdMillis, emptyRoot);
            c.commit();
            return b;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static BoardRow createInTransaction(
            Connection c, String name, String origin, long createdMillis, byte[] emptyRoot) throws SQLException {
        // the highest ID is read in a statement after the lock: at READ COMMITTED (the projector's
        // level) that statement's snapshot sees every creation committed before the lock was granted
        short id;
        try (Statement lock = c.createStatement()) {
            // conflicts with itself and with INSERT, not with reads: one creation at a time
            lock.execute("LOCK TABLE boards IN SHARE ROW EXCLUSIVE MODE");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO boards (board_id, name, origin, created) "
                + "SELECT coalesce(max(board_id), 0) + 1, ?, ?, ? FROM boards WHERE board_id > 0 RETURNING board_id")) {
            ps.setString(1, name);
            ps.setString(2, origin);
            ps.setTimestamp(3, new Timestamp(createdMillis));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("INSERT INTO boards returned no ID");
                }
                id = rs.getShort(1);
            }
        }
        insertEmptyState(c, id, emptyRoot);
        return new BoardRow(id, name, origin);
    }

    /**
     * Creates a scratch board with an empty tree under a negative ID, for a transaction the caller
     * rolls back: the projector's warm-up at start writes its made-up batches to one (decision 81).
     * {@link #create} never gives a negative ID, so a scratch board takes its ID from the caller: it
     * cannot collide with a board that is kept. Two scratch boards of the same ID in concurrent
     * transactions wait for each other on the primary key, never fail.
     */
    public static BoardRow createScratch(
            Connection c, short negativeId, String name, String origin, long createdMillis, byte[] emptyRoot)
            throws SQLException {
        if (negativeId >= 0) {
            throw new IllegalArgumentException("a scratch board's ID is negative, got " + negativeId);
        }
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO boards (board_id, name, origin, created) VALUES (?, ?, ?, ?)")) {
            ps.setShort(1, negativeId);
            ps.setString(2, name);
            ps.setString(3, origin);
            ps.setTimestamp(4, new Timestamp(createdMillis));
            ps.executeUpdate();
        }
        insertEmptyState(c, negativeId, emptyRoot);
        return new BoardRow(negativeId, name, origin);
    }

    private static void insertEmptyState(Connection c, short id, byte[] emptyRoot) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO board_state (board_id, size, root) VALUES (?, 0, ?)")) {
            ps.setShort(1, id);
            ps.setBytes(2, emptyRoot);
            ps.executeUpdate();
        }
    }

    /**
     * Sets a board's tree size, root, last created time, seal (null: open; V17 refuses any change
     * once it is set) and first record in the committed form (null: none yet, V23), and adds {@code
     * dropped} to its dropped duplicates.
     */
    public static void update(
            Connection c,
            short boardId,
            long size,
            byte[] root,
            Long lastCreatedMillis,
            int dropped,
            Long sealedMillis,
            Long committedFrom)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE board_state SET size = ?, root = ?, last_created = ?, "
                + "duplicates_dropped = duplicates_dropped + ?, sealed = ?, committed_from = ? WHERE board_id = ?")) {
            ps.setLong(1, size);
            ps.setBytes(2, root);
            ps.setTimestamp(3, lastCreatedMillis == null ? null : new Timestamp(lastCreatedMillis));
            ps.setLong(4, dropped);
            ps.setTimestamp(5, sealedMillis == null ? null : new Timestamp(sealedMillis));
            if (committedFrom == null) {
                ps.setNull(6, Types.BIGINT);
            } else {
                ps.setLong(6, committedFrom);
            }
            ps.setShort(7, boardId);
            if (ps.executeUpdate() != 1) {
                throw new SQLException("board " + boardId + " has no board_state row", "XX000");
            }
        }
    }

    /** The boards with records whose current size has no signed checkpoint (after a projector died between the two). */
    public static List<BoardState> withoutCurrentCheckpoint(Connection c) throws SQLException {
        List<BoardState> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(STATE + " WHERE s.size > 0 AND NOT EXISTS "
                        + "(SELECT 1 FROM checkpoints k WHERE k.board_id = s.board_id AND k.size = s.size)");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(state(rs));
            }
        }
        return out;
    }

    private static BoardState state(ResultSet rs) throws SQLException {
        Timestamp last = rs.getTimestamp(6);
        Timestamp sealed = rs.getTimestamp(8);
        return new BoardState(
                new BoardRow(rs.getShort(1), rs.getString(2), rs.getString(3)),
                rs.getLong(4),
                rs.getBytes(5),
                last == null ? null : last.getTime(),
                rs.getLong(7),
                sealed == null ? null : sealed.getTime(),
                rs.getObject(9) == null ? null : rs.getLong(9));
    }
}
