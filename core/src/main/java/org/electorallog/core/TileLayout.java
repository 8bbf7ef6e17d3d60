package org.electorallog.core;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Tile geometry and resource paths of C2SP tlog-tiles ("Merkle Tree" and "Tiles" sections):
 * tiles are 8 levels high and 256 hashes wide; {@code tile/<L>/<N>[.p/<W>]} names hash tiles and
 * {@code tile/entries/<N>[.p/<W>]} names entry bundles, where N is written as zero-padded 3-digit
 * path elements, all but the last prefixed with {@code x}.
 */
public final class TileLayout {
    /** Tile height in tree levels (C2SP tlog-tiles: fixed at 8). */
    public static final int TILE_HEIGHT = 8;
    /** Hashes (or entries) in a full tile: 2^8. */
    public static final int TILE_WIDTH = 1 << TILE_HEIGHT;
    /** Bytes in a full hash tile. */
    public static final int FULL_TILE_BYTES = TILE_WIDTH * Hashes.HASH_SIZE;

    private TileLayout() {}

    /**
     * Width of tile {@code (level, index)} in a tree of {@code treeSize} leaves: 256 for a full tile,
     * 1..255 for the partial right-edge tile, 0 when the tile does not exist yet.
     */
    public static int width(int level, long index, long treeSize) {
        if (level < 0 || level > TilePath.MAX_LEVEL || index < 0 || treeSize < 0) {
            return 0;
        }
        long hashesAtLevel = treeSize >>> (TILE_HEIGHT * level);
        // compared tile by tile, never as index * 256, which overflows for an index of 2^55 or more
        long fullTiles = hashesAtLevel >>> TILE_HEIGHT;
        if (index < fullTiles) {
            return TILE_WIDTH;
        }
        if (index > fullTiles) {
            return 0;
        }
        return (int) (hashesAtLevel & (TILE_WIDTH - 1));
    }

    /** The key of the tile that holds the stored hash at (tile level, position at that level). */
    public static TileKey tileOf(int level, long position) {
        return new TileKey(level, position >>> TILE_HEIGHT);
    }

    /**
     * Every tile an inclusion proof of leaf {@code index} in a tree of {@code size} leaves can read
     * (RFC 9162 section 2.1.3, the leaf's own hash included): {@link #pathTiles} of the leaf. A
     * superset of what one proof reads: a leaf far from the edge needs no edge tile.
     */
    public static Set<TileKey> inclusionTiles(long index, long size) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("leaf " + index + " is not in a tree of size " + size);
        }
        return pathTiles(size, index);
    }

    /**
     * Every tile a consistency proof from {@code from} to {@code size} leaves can read, the root of
     * the first tree included (RFC 9162 section 2.1.4, MTH(D[0:from]) and SUBPROOF(from, D[0:size])):
     * {@link #pathTiles} of the first tree's last leaf, {@code from - 1}. Every node either proof reads
     * is an ancestor of that leaf, a sibling of one, or on the right edge of the second tree.
     */
    public static Set<TileKey> consistencyTiles(long from, long size) {
        if (from < 1 || from > size) {
            throw new IllegalArgumentException(
                    "a consistency proof needs 1 <= from <= size, got " + from + " and " + size);
        }
        return pathTiles(size, from - 1);
    }

    /**
     * The tiles on the paths of {@code leaves} and of the right edge of a tree of {@code size}
     * leaves: at each tile level L that holds a hash ({@code size >= 2^(8L)}), the tile
     * {@code leaf >> 8(L+1)} of every leaf and the tile {@code (size-1) >> 8(L+1)}. A sibling subtree
     * of a leaf's path that is whole lies in the path's tile of its level; a right sibling cut short
     * by the tree's end splits into perfect subtrees that each lie in the right-edge tile of their
     * level (C2SP tlog-tiles, "Merkle Tree"). The proof statements of the projection
     * ({@code BoardTips.PROOF_TIP_SQL}, store) compute the same set in SQL from the leaves and the
     * checkpoint's size, in the statement that reads the checkpoint.
     */
    public static Set<TileKey> pathTiles(long size, long... leaves) {
        if (size < 1) {
            throw new IllegalArgumentException("a tree with tiles has at least one leaf, got size " + size);
        }
        if (size > 1L << (TILE_HEIGHT * (MAX_LEVELS - 1))) {
            throw new IllegalArgumentException(
                    "a tree of more than 2^56 leaves has more than " + MAX_LEVELS + " tile levels: " + size);
        }
        for (long leaf : leaves) {
            if (leaf < 0 || leaf >= size) {
                throw new IllegalArgumentException("leaf " + leaf + " is not in a tree of size " + size);
            }
        }
        Set<TileKey> keys = new LinkedHashSet<>();
        for (int level = 0; level < MAX_LEVELS && (level == 0 || size >>> (TILE_HEIGHT * level) > 0); level++) {
            int shift = TILE_HEIGHT * (level + 1);
            for (long leaf : leaves) {
                keys.add(new TileKey(level, leaf >>> shift));
            }
            keys.add(new TileKey(level, (size - 1) >>> shift));
        }
        return keys;
    }

    /** Tile levels a tree of up to 2^56 leaves has (levels 0 to 6): the bound of {@link #pathTiles}. */
    public static final int MAX_LEVELS = 7;

    /** C2SP tlog-tiles hash tile path {@code tile/<L>/<N>[.p/<W>]}; width 256 means full. */
    public static String tilePath(int level, long index, int width) {
        checkWidth(width);
        return "tile/" + level + "/" + encodeIndex(index) + (width < TILE_WIDTH ? ".p/" + width : "");
    }

    /** C2SP tlog-tiles entry bundle path {@code tile/entries/<N>[.p/<W>]}; width 256 means full. */
    public static String entriesPath(long index, int width) {
        checkWidth(width);
        return "tile/entries/" + encodeIndex(index) + (width < TILE_WIDTH ? ".p/" + width : "");
    }

    /**
     * The path of the signature bundle beside entry bundle {@code tile/entries/<N>[.p/<W>]}:
     * {@code signatures/<N>[.p/<W>]} ({@link SignatureBundle}; the log's own, not C2SP).
     */
    public static String signaturesPath(long index, int width) {
        return "signatures/" + entriesPath(index, width).substring("tile/entries/".length());
    }

    /**
     * Encodes a tile index as C2SP tlog-tiles path elements: 1234067 becomes {@code x001/x234/067},
     * 5 becomes {@code 005}.
     */
    public static String encodeIndex(long index) {
        if (index < 0) {
            throw new IllegalArgumentException("tile index must not be negative: " + index);
        }
        String last = String.format("%03d", index % 1000);
        StringBuilder prefix = new StringBuilder();
        long rest = index / 1000;
        while (rest > 0) {
            prefix.insert(0, String.format("x%03d/", rest % 1000));
            rest /= 1000;
        }
        return prefix + last;
    }

    /**
     * Parses the index part of a tile path ({@code x001/x234/067}) strictly: every element has
     * exactly three digits, all but the last start with {@code x}, and there are no leading zero
     * groups (so each index has one spelling).
     */
    public static long decodeIndex(String encoded) {
        String[] parts = encoded.split("/", -1);
        long value = 0;
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            boolean last = i == parts.length - 1;
            if (!last) {
                if (!p.startsWith("x")) {
                    throw new IllegalArgumentException("tile index element '" + p + "' must start with x");
                }
                p = p.substring(1);
            }
            if (p.length() != 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("tile index element '" + parts[i] + "' must be three digits");
            }
            if (i == 0 && !last && p.equals("000")) {
                throw new IllegalArgumentException("tile index '" + encoded + "' has a leading zero group");
            }
            if (value > (Long.MAX_VALUE - 999) / 1000) {
                throw new IllegalArgumentException("tile index '" + encoded + "' is too large");
            }
            value = value * 1000 + Integer.parseInt(p);
        }
        return value;
    }

    /** Parses a partial-width suffix value {@code W} of {@code .p/<W>}: 1..255. */
    public static int decodeWidth(String w) {
        if (w.isEmpty()
                || w.length() > 3
                || !w.chars().allMatch(c -> c >= '0' && c <= '9')
                || (w.length() > 1 && w.charAt(0) == '0')) {
            throw new IllegalArgumentException("partial tile width '" + w + "' must be a number 1..255");
        }
        int width = Integer.parseInt(w);
        if (width < 1 || width >= TILE_WIDTH) {
            throw new IllegalArgumentException("partial tile width must be 1..255, got " + width);
        }
        return width;
    }

    private static void checkWidth(int width) {
        if (width < 1 || width > TILE_WIDTH) {
            throw new IllegalArgumentException("tile width must be 1..256, got " + width);
        }
    }
}
