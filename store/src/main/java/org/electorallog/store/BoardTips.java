package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;

/**
 * A board's tip in one statement: its size and latest (or latest witnessed) checkpoint with its
 * cosignatures ({@link BoardTip}), and with the tiles a proof needs ({@link ProofTip}). Serves the
 * checkpoint and proof requests.
 */
public final class BoardTips {
    private BoardTips() {}

    /**
     * A board, its tree size and its latest checkpoint with that checkpoint's cosignature lines, in
     * one statement: boards_name_key, board_state's primary key, one backward probe of checkpoints'
     * primary key and a range of checkpoint_cosignatures' primary key. Serves the checkpoint and
     * proof requests ({@link BoardTip}).
     */
    public static final String TIP_SQL = tipSql("");

    /** As {@link #TIP_SQL} with the latest witnessed checkpoint (partial index checkpoints_witnessed, V13). */
    public static final String WITNESSED_TIP_SQL = tipSql("AND c.witnessed IS NOT NULL ");

    private static String tipSql(String checkpointFilter) {
        return "SELECT b.board_id, b.origin, s.size, k.size, k.root, k.note, "
                + "(SELECT coalesce(string_agg(w.line, '' ORDER BY w.witness), '') FROM checkpoint_cosignatures w "
                + "WHERE w.board_id = b.board_id AND w.size = k.size) "
                + "FROM boards b JOIN board_state s USING (board_id) "
                + "LEFT JOIN LATERAL (SELECT c.size, c.root, c.note FROM checkpoints c WHERE c.board_id = b.board_id "
                + checkpointFilter + "ORDER BY c.size DESC LIMIT 1) k ON true WHERE b.name = ?";
    }

    /**
     * As {@link #TIP_SQL}, and in the same statement the tiles a proof at the latest checkpoint
     * reads: at each tile level, the tile on the path of each of up to two leaves (the second and
     * third parameters, null for none; a leaf outside the board's tree is ignored) and on the path of
     * the checkpoint's last leaf, {@code cp_size - 1} (the tree's right edge), each one probe of
     * tiles' primary key as in {@link Tiles#BY_KEYS_SQL}. The levels are those of a tree as large as
     * the largest of these leaves and the checkpoint ({@link TileLayout#pathTiles}, computed here).
     * A record proof passes the record (its path and the edge, {@link TileLayout#inclusionTiles}); a
     * consistency proof from size m passes m - 1 ({@link TileLayout#consistencyTiles}); a proof from
     * a trusted checkpoint of size t passes the record and t - 1. One statement is one snapshot and
     * one round trip: a proof is this statement, autocommitted, with nothing to roll back (issue 17).
     * The first row is the tip (a non-null board ID), the others tiles (level, index, hashes).
     */
    public static final String PROOF_TIP_SQL = "WITH tip(board_id, origin, tree_size, cp_size, root, note, lines) AS ("
            + TIP_SQL + "), leaves(leaf) AS (SELECT u.leaf FROM tip "
            + "CROSS JOIN (VALUES (?::bigint), (?::bigint)) AS u(leaf) "
            + "WHERE u.leaf >= 0 AND u.leaf < tip.tree_size "
            + "UNION SELECT tip.cp_size - 1 FROM tip WHERE tip.cp_size > 0), "
            + "keys AS (SELECT DISTINCT l::smallint AS level, leaves.leaf >> ("
            + TileLayout.TILE_HEIGHT + " * (l + 1)) AS idx FROM leaves "
            + "CROSS JOIN (SELECT max(leaf) + 1 AS size FROM leaves) AS bound "
            + "CROSS JOIN generate_series(0, " + (TileLayout.MAX_LEVELS - 1) + ") AS l "
            + "WHERE l = 0 OR bound.size >> (" + TileLayout.TILE_HEIGHT + " * l) > 0) "
            + "SELECT tip.board_id, tip.origin, tip.tree_size, tip.cp_size, tip.root, tip.note, tip.lines, "
            + "NULL::smallint, NULL::bigint, NULL::bytea FROM tip "
            + "UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, t.level, t.idx, t.hashes FROM tip CROSS JOIN keys "
            + "CROSS JOIN LATERAL (SELECT level, idx, hashes FROM tiles WHERE board_id = tip.board_id "
            + "AND level = keys.level AND idx = keys.idx LIMIT 1) t";

    /**
     * The board named {@code name} with its size and latest checkpoint, and the stored tiles on the
     * paths of {@code leaves} (one or two) and of the checkpoint's right edge ({@link #PROOF_TIP_SQL}),
     * if the board exists.
     */
    public static Optional<ProofTip> proofTip(Connection c, String name, long... leaves) throws SQLException {
        if (leaves.length < 1 || leaves.length > 2) {
            throw new IllegalArgumentException(
                    "a proof's statement reads the paths of one or two leaves, not " + leaves.length);
        }
        try (PreparedStatement ps = c.prepareStatement(PROOF_TIP_SQL)) {
            ps.setString(1, name);
            ps.setLong(2, leaves[0]);
            if (leaves.length == 2) {
                ps.setLong(3, leaves[1]);
            } else {
                ps.setNull(3, Types.BIGINT);
            }
            try (ResultSet rs = ps.executeQuery()) {
                BoardTip tip = null;
                Map<TileKey, byte[]> tiles = new HashMap<>();
                while (rs.next()) {
                    short board = rs.getShort(1);
                    if (!rs.wasNull()) {
                        tip = tipOf(rs, board, name);
                    } else {
                        tiles.put(new TileKey(rs.getShort(8), rs.getLong(9)), rs.getBytes(10));
                    }
                }
                return tip == null ? Optional.empty() : Optional.of(new ProofTip(tip, tiles));
            }
        }
    }

    /** The board named {@code name} with its size and latest checkpoint ({@link #TIP_SQL}), if any. */
    public static Optional<BoardTip> tip(Connection c, String name) throws SQLException {
        return tip(c, TIP_SQL, name);
    }

    /** The board named {@code name} with its size and latest witnessed checkpoint, if any. */
    public static Optional<BoardTip> witnessedTip(Connection c, String name) throws SQLException {
        return tip(c, WITNESSED_TIP_SQL, name);
    }

    private static Optional<BoardTip> tip(Connection c, String sql, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(tipOf(rs, rs.getShort(1), name)) : Optional.empty();
            }
        }
    }

    /** The tip in the current row of a {@link #TIP_SQL}-shaped result (columns 1 to 7). */
    private static BoardTip tipOf(ResultSet rs, short boardId, String name) throws SQLException {
        BoardRow board = new BoardRow(boardId, name, rs.getString(2));
        long checkpointSize = rs.getLong(4);
        CheckpointRow checkpoint =
                rs.wasNull() ? null : new CheckpointRow(checkpointSize, rs.getBytes(5), rs.getString(6));
        String lines = rs.getString(7);
        return new BoardTip(board, rs.getLong(3), checkpoint, lines == null ? "" : lines);
    }
}
