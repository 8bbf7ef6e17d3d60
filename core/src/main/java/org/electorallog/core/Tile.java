package org.electorallog.core;

import java.util.Arrays;

/**
 * A tile of C2SP tlog-tiles: up to 256 consecutive hashes of one level, concatenated
 * ({@code width * 32} bytes). A partial tile (width below 256) is always a prefix of the full tile
 * it grows into.
 */
@SuppressWarnings("ArrayRecordComponent") // equals and hashCode compare the hashes by content
public record Tile(TileKey key, byte[] hashes) {
    public Tile {
        if (hashes.length == 0
                || hashes.length % Hashes.HASH_SIZE != 0
                || hashes.length > TileLayout.TILE_WIDTH * Hashes.HASH_SIZE) {
            throw new IllegalArgumentException("tile " + key + " must hold 1.." + TileLayout.TILE_WIDTH
                    + " hashes, got " + hashes.length + " bytes");
        }
    }

    public int width() {
        return hashes.length / Hashes.HASH_SIZE;
    }

    public boolean isFull() {
        return width() == TileLayout.TILE_WIDTH;
    }

    /** The hash at position {@code i} (0-based within the tile). */
    public byte[] hash(int i) {
        return Arrays.copyOfRange(hashes, i * Hashes.HASH_SIZE, (i + 1) * Hashes.HASH_SIZE);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tile t && t.key.equals(key) && Arrays.equals(t.hashes, hashes);
    }

    @Override
    public int hashCode() {
        return key.hashCode() * 31 + Arrays.hashCode(hashes);
    }

    @Override
    public String toString() {
        return "Tile[" + TileLayout.tilePath(key.level(), key.index(), width()) + "]";
    }
}
