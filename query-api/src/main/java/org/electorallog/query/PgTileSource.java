package org.electorallog.query;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileSource;

/** Reads all the tiles one proof needs in one query, on the caller's connection (and snapshot). */
final class PgTileSource implements TileSource {
    /**
     * All the tiles of one proof by their keys: one primary-key probe of tiles per key. LATERAL with
     * LIMIT 1 (the key is the primary key, so it cuts nothing) keeps each key a parameterized lookup
     * whatever the statistics say: a plain join was planned as a hash join over every tile of every
     * board while the tiles table was small.
     */
    static final String SQL = "SELECT t.level, t.idx, t.hashes FROM unnest(?::smallint[], ?::bigint[]) AS k(level, idx) "
            + "CROSS JOIN LATERAL (SELECT level, idx, hashes FROM tiles WHERE board_id = ? AND level = k.level AND idx = k.idx LIMIT 1) t";

    private final Connection c;
    private final short boardId;

    PgTileSource(Connection c, short boardId) {
        this.c = c;
        this.boardId = boardId;
    }

    @Override
    public Map<TileKey, byte[]> readTiles(Set<TileKey> keys) {
        Short[] levels = new Short[keys.size()];
        Long[] idxs = new Long[keys.size()];
        int i = 0;
        for (TileKey k : keys) {
            levels[i] = (short) k.level();
            idxs[i] = k.index();
            i++;
        }
        Map<TileKey, byte[]> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(SQL)) {
            ps.setArray(1, c.createArrayOf("smallint", levels));
            ps.setArray(2, c.createArrayOf("bigint", idxs));
            ps.setShort(3, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(new TileKey(rs.getShort(1), rs.getLong(2)), rs.getBytes(3));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read tiles: " + e.getMessage(), e);
        }
        return out;
    }
}
