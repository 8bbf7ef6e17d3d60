package org.electorallog.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A log's files in the C2SP tlog-tiles layout, by path relative to its prefix ({@code checkpoint},
 * {@code tile/<L>/<N>[.p/<W>]}, {@code tile/entries/<N>[.p/<W>]}), wherever they are: a directory,
 * a URL, a query API, a mirror.
 */
@FunctionalInterface
public interface TiledFiles {
    /** The file's bytes, or null when there is none. */
    byte[] get(String path) throws IOException;

    /**
     * The hash tiles as of tree size {@code size}: each tile at the width that size gives it, or,
     * when that partial tile is gone because the tree has since filled it, the full tile's first
     * hashes, as C2SP tlog-tiles tells clients to do. An I/O failure is an UncheckedIOException.
     */
    default TileSource tilesAt(long size) {
        return keys -> {
            Map<TileKey, byte[]> out = new HashMap<>();
            for (TileKey k : keys) {
                int width = TileLayout.width(k.level(), k.index(), size);
                try {
                    byte[] tile = get(TileLayout.tilePath(k.level(), k.index(), width));
                    if (tile == null && width < TileLayout.TILE_WIDTH) {
                        byte[] full = get(TileLayout.tilePath(k.level(), k.index(), TileLayout.TILE_WIDTH));
                        tile = full == null ? null : Arrays.copyOf(full, width * Hashes.HASH_SIZE);
                    }
                    if (tile != null) {
                        out.put(k, tile);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("tile " + k + " of the log's files", e);
                }
            }
            return out;
        };
    }
}
