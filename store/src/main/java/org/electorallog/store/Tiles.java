package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.electorallog.core.Hashes;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileSource;

/**
 * Table {@code tiles} (V1): the C2SP tlog-tiles hash tiles of every board, full tiles and the
 * current partial tile of each level, keyed by (board, level, index).
 */
public final class Tiles {
    /**
     * Tiles by their keys: one primary-key probe of tiles per key. LATERAL with LIMIT 1 (the key is
     * the primary key, so it cuts nothing) keeps each key a parameterized lookup whatever the
     * statistics say: a plain join was planned as a hash join over every tile of every board while the
     * tiles table was small. Proofs, the projector's tree restore and the comparison all read this way.
     */
    public static final String BY_KEYS_SQL = "SELECT t.level, t.idx, t.hashes FROM unnest(?::smallint[], ?::bigint[]) "
            + "AS k(level, idx) CROSS JOIN LATERAL (SELECT level, idx, hashes FROM tiles WHERE board_id = ? "
            + "AND level = k.level AND idx = k.idx LIMIT 1) t";

    private Tiles() {}

    /** The stored tiles among {@code keys} of a board (missing keys are absent from the map). */
    public static Map<TileKey, byte[]> read(Connection c, short boardId, Collection<TileKey> keys) throws SQLException {
        Short[] levels = new Short[keys.size()];
        Long[] idxs = new Long[keys.size()];
        int i = 0;
        for (TileKey k : keys) {
            levels[i] = (short) k.level();
            idxs[i] = k.index();
            i++;
        }
        Map<TileKey, byte[]> out = new HashMap<>();
        if (keys.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement(BY_KEYS_SQL)) {
            ps.setArray(1, c.createArrayOf("smallint", levels));
            ps.setArray(2, c.createArrayOf("bigint", idxs));
            ps.setShort(3, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(new TileKey(rs.getShort(1), rs.getLong(2)), rs.getBytes(3));
                }
            }
        }
        return out;
    }

    /**
     * The leaf hashes of records {@code ids} of a board, from their level-0 tiles (C2SP tlog-tiles:
     * leaf {@code n} is hash {@code n mod 256} of level-0 tile {@code n / 256}); a record whose tile
     * does not hold it is absent from the map.
     */
    public static Map<Long, byte[]> leaves(Connection c, short boardId, Collection<Long> ids) throws SQLException {
        Set<TileKey> keys = new HashSet<>();
        for (long id : ids) {
            keys.add(new TileKey(0, id / TileLayout.TILE_WIDTH));
        }
        Map<TileKey, byte[]> tiles = read(c, boardId, keys);
        Map<Long, byte[]> out = new HashMap<>();
        for (long id : ids) {
            byte[] tile = tiles.get(new TileKey(0, id / TileLayout.TILE_WIDTH));
            int at = (int) (id % TileLayout.TILE_WIDTH) * Hashes.HASH_SIZE;
            if (tile != null && tile.length >= at + Hashes.HASH_SIZE) {
                out.put(id, Arrays.copyOfRange(tile, at, at + Hashes.HASH_SIZE));
            }
        }
        return out;
    }

    /** A board's tiles as a {@link TileSource} for proofs, read on {@code c} (and in its snapshot). */
    public static TileSource source(Connection c, short boardId) {
        return keys -> {
            try {
                return read(c, boardId, keys);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read the tiles of board " + boardId + ": " + e.getMessage(), e);
            }
        };
    }

    /** One stored tile, at its stored width. */
    public static Optional<byte[]> one(Connection c, short boardId, int level, long index) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT hashes FROM tiles WHERE board_id = ? AND level = ? AND idx = ?")) {
            ps.setShort(1, boardId);
            ps.setShort(2, (short) level);
            ps.setLong(3, index);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getBytes(1)) : Optional.empty();
            }
        }
    }

    /** Writes tiles that changed (a partial tile grows in place; a full tile is written once). */
    public static void write(Connection c, short boardId, List<Tile> tiles) throws SQLException {
        if (tiles.isEmpty()) {
            return;
        }
        Short[] levels = new Short[tiles.size()];
        Long[] idxs = new Long[tiles.size()];
        byte[][] hashes = new byte[tiles.size()][];
        for (int i = 0; i < tiles.size(); i++) {
            levels[i] = (short) tiles.get(i).key().level();
            idxs[i] = tiles.get(i).key().index();
            hashes[i] = tiles.get(i).hashes();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO tiles (board_id, level, idx, hashes) SELECT ?, u.level, u.idx, u.hashes "
                        + "FROM unnest(?::smallint[], ?::bigint[], ?::bytea[]) AS u(level, idx, hashes) "
                        + "ON CONFLICT (board_id, level, idx) DO UPDATE SET hashes = EXCLUDED.hashes")) {
            ps.setShort(1, boardId);
            ps.setArray(2, c.createArrayOf("smallint", levels));
            ps.setArray(3, c.createArrayOf("bigint", idxs));
            ps.setArray(4, c.createArrayOf("bytea", hashes));
            ps.executeUpdate();
        }
    }

    /** The stored tiles at every level that cover leaves [start, end) of a tree of {@code size} (the audit's pages). */
    public static Map<TileKey, byte[]> covering(Connection c, short boardId, long start, long end, long size)
            throws SQLException {
        Map<TileKey, byte[]> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT level, idx, hashes FROM tiles WHERE board_id = ? AND level = ? AND idx >= ? AND idx <= ?")) {
            for (int level = 0; level <= 7; level++) {
                long span = 1L << (8 * level);
                long first = (start / span) / 256;
                long last = (Math.max(start, end - 1) / span) / 256;
                if (level > 0 && (size >>> (8 * level)) == 0) {
                    break;
                }
                ps.setShort(1, boardId);
                ps.setShort(2, (short) level);
                ps.setLong(3, first);
                ps.setLong(4, last);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(new TileKey(rs.getShort(1), rs.getLong(2)), rs.getBytes(3));
                    }
                }
            }
        }
        return out;
    }

    /** A stored tile's key and length in bytes. */
    public record StoredWidth(TileKey key, int bytes) {}

    /**
     * The tiles that may have a wrong width at {@code size}: partial ones and any beyond the last full
     * one (missing tiles are found by recomputing).
     */
    public static List<StoredWidth> notFullOrBeyond(Connection c, short boardId, long size) throws SQLException {
        List<StoredWidth> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT level, idx, length(hashes) FROM tiles WHERE board_id = ? "
                        + "AND (length(hashes) <> 8192 OR (idx + 1) * 256 > (?::bigint >> (8 * level))) ORDER BY level, idx")) {
            ps.setShort(1, boardId);
            ps.setLong(2, size);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredWidth(new TileKey(rs.getShort(1), rs.getLong(2)), rs.getInt(3)));
                }
            }
        }
        return out;
    }
}
