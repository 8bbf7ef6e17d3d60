package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/** Table {@code checkpoints} (V1): every signed checkpoint of every board, by (board, size). */
public final class Checkpoints {
    /** The latest signed checkpoint of a board (the checkpoints primary key, backwards). */
    public static final String LATEST_SQL =
            "SELECT size, root, note FROM checkpoints WHERE board_id = ? ORDER BY size DESC LIMIT 1";

    /** The checkpoint at one size (the primary key). */
    public static final String AT_SQL = "SELECT size, root, note FROM checkpoints WHERE board_id = ? AND size = ?";

    private Checkpoints() {}

    /** A board's checkpoint at {@code size}, if one was signed at that size. */
    public static Optional<CheckpointRow> at(Connection c, short boardId, long size) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(AT_SQL)) {
            ps.setShort(1, boardId);
            ps.setLong(2, size);
            return first(ps);
        }
    }

    /** The newest checkpoint at or below a size (the primary key, backwards): what a client that kept one holds. */
    public static final String AT_OR_BELOW_SQL =
            "SELECT size, root, note FROM checkpoints WHERE board_id = ? AND size <= ? ORDER BY size DESC LIMIT 1";

    /** A board's newest checkpoint at or below {@code size}, if any. */
    public static Optional<CheckpointRow> atOrBelow(Connection c, short boardId, long size) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(AT_OR_BELOW_SQL)) {
            ps.setShort(1, boardId);
            ps.setLong(2, size);
            return first(ps);
        }
    }

    /**
     * The first checkpoint at or past a size with its witness cosignature lines appended (the
     * checkpoints primary key forwards, checkpoint_cosignatures' primary key for its lines): a
     * board's checkpoint history, read one step at a time ({@code GET /boards/{board}/checkpoint?from=}).
     */
    public static final String COSIGNED_FROM_SQL = "SELECT c.size, c.root, c.note || coalesce((SELECT "
            + "string_agg(w.line, '' ORDER BY w.witness) FROM checkpoint_cosignatures w "
            + "WHERE w.board_id = c.board_id AND w.size = c.size), '') "
            + "FROM checkpoints c WHERE c.board_id = ? AND c.size >= ? ORDER BY c.size LIMIT 1";

    /** A board's first checkpoint at or past {@code size}, its note with its cosignatures, if any. */
    public static Optional<CheckpointRow> cosignedFrom(Connection c, short boardId, long size) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(COSIGNED_FROM_SQL)) {
            ps.setShort(1, boardId);
            ps.setLong(2, size);
            return first(ps);
        }
    }

    /** A board's latest checkpoint, if it has one. */
    public static Optional<CheckpointRow> latest(Connection c, short boardId) throws SQLException {
        return one(c, LATEST_SQL, boardId);
    }

    private static Optional<CheckpointRow> one(Connection c, String sql, short boardId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setShort(1, boardId);
            return first(ps);
        }
    }

    private static Optional<CheckpointRow> first(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next()
                    ? Optional.of(new CheckpointRow(rs.getLong(1), rs.getBytes(2), rs.getString(3)))
                    : Optional.empty();
        }
    }

    /** The sizes of a board's checkpoints marked witnessed (index checkpoints_witnessed), for the audit. */
    public static SortedSet<Long> witnessedSizes(Connection c, short boardId) throws SQLException {
        SortedSet<Long> out = new TreeSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT size FROM checkpoints WHERE board_id = ? AND witnessed IS NOT NULL ORDER BY size")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        }
        return out;
    }

    /** Every checkpoint of a board, by size. */
    public static List<CheckpointRow> all(Connection c, short boardId) throws SQLException {
        List<CheckpointRow> out = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT size, root, note FROM checkpoints WHERE board_id = ? ORDER BY size")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new CheckpointRow(rs.getLong(1), rs.getBytes(2), rs.getString(3)));
                }
            }
        }
        return out;
    }

    /**
     * Stores a signed checkpoint. Checkpoint notes are deterministic (Ed25519), so two writers signing
     * the same size store the same note, and the second insert does nothing.
     */
    public static void add(Connection c, short boardId, CheckpointRow checkpoint) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO checkpoints (board_id, size, root, note) VALUES (?, ?, ?, ?) "
                        + "ON CONFLICT (board_id, size) DO NOTHING")) {
            ps.setShort(1, boardId);
            ps.setLong(2, checkpoint.size());
            ps.setBytes(3, checkpoint.root());
            ps.setString(4, checkpoint.note());
            ps.executeUpdate();
        }
    }
}
