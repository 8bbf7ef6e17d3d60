package org.electorallog.core;

/**
 * A tile's place in the tile tree of C2SP tlog-tiles: level {@code L} (tile level, not node height;
 * level-L tiles hold nodes of height 8L) and index {@code N} (the N-th tile of that level).
 */
public record TileKey(int level, long index) {
    public TileKey {
        if (level < 0 || level > 63 || index < 0) {
            throw new IllegalArgumentException("bad tile (level " + level + ", index " + index + ")");
        }
    }
}
