package org.electorallog.query;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.electorallog.config.Setting;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileSource;

/**
 * Full hash tiles kept in memory (issue 45 item 2). A full tile (256 hashes, C2SP tlog-tiles) never
 * changes once it exists, so after the database gave it once it is served from here: a
 * {@code tile/<L>/<N>} request without a database read, and the full tiles of a proof without a tile
 * query (only the right edge, which is partial, still comes from the database). The least recently
 * used go first beyond the capacity; a tile is 8 KiB, so 8,192 of them (the default) take 64 MiB
 * and cover the level-0 tiles of 2M records, or every tile above level 0 of a 500M-record board.
 */
public final class FullTiles {
    /** Tiles kept by default (64 MiB of hashes): the catalogue's {@code FULL_TILES}. */
    public static final int DEFAULT_CAPACITY = (int) Setting.FULL_TILES.defaultNumber();

    /** A board's tile by name: board names are unique and a board is never deleted. */
    record Key(String board, int level, long index) {}

    private final int capacity;
    private final LinkedHashMap<Key, byte[]> tiles;
    final LongAdder hits = new LongAdder();
    final LongAdder misses = new LongAdder();

    FullTiles(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("the full tile cache holds 0 or more tiles, not " + capacity);
        }
        this.capacity = capacity;
        this.tiles = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, byte[]> eldest) {
                return size() > FullTiles.this.capacity;
            }
        };
    }

    /** The full tile, or null when it is not held (or not full yet). Counts a hit or a miss. */
    byte[] get(String board, int level, long index) {
        byte[] t;
        synchronized (tiles) {
            t = tiles.get(new Key(board, level, index));
        }
        (t != null ? hits : misses).increment();
        return t;
    }

    /** Keeps {@code hashes} when they are a full tile; a partial tile is never kept. */
    void offer(String board, int level, long index, byte[] hashes) {
        if (capacity > 0 && hashes.length == TileLayout.FULL_TILE_BYTES) {
            synchronized (tiles) {
                tiles.put(new Key(board, level, index), hashes);
            }
        }
    }

    /** Tiles held now. */
    int size() {
        synchronized (tiles) {
            return tiles.size();
        }
    }

    /**
     * A tile source for a proof on {@code board}: the full tiles held here, the others from
     * {@code database} in one read (whose full tiles are then kept).
     */
    TileSource over(String board, TileSource database) {
        return keys -> {
            Map<TileKey, byte[]> out = new HashMap<>();
            Set<TileKey> missing = new HashSet<>();
            for (TileKey k : keys) {
                byte[] t = get(board, k.level(), k.index());
                if (t != null) {
                    out.put(k, t);
                } else {
                    missing.add(k);
                }
            }
            if (!missing.isEmpty()) {
                database.readTiles(missing).forEach((k, hashes) -> {
                    offer(board, k.level(), k.index(), hashes);
                    out.put(k, hashes);
                });
            }
            return out;
        };
    }
}
