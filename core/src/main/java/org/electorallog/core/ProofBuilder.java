package org.electorallog.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds RFC 6962 inclusion and consistency proofs (and tree heads at any size) from stored hash
 * tiles. Each call asks its {@link TileSource} once, for every tile it needs.
 */
public final class ProofBuilder {
    private ProofBuilder() {}

    /** RFC 6962 section 2.1.1 audit path of leaf {@code index} in the tree of {@code size} leaves. */
    public static List<byte[]> inclusion(long index, long size, TileSource source) {
        return hashRanges(TreeMath.inclusionRanges(index, size), source);
    }

    /** RFC 6962 section 2.1.2 consistency proof from tree size {@code first} to {@code second}. */
    public static List<byte[]> consistency(long first, long second, TileSource source) {
        return hashRanges(TreeMath.consistencyRanges(first, second), source);
    }

    /** MTH(D[0:size]), the tree head at {@code size}, from tiles; size 0 gives the empty root. */
    public static byte[] rootAt(long size, TileSource source) {
        if (size < 0) {
            throw new IllegalArgumentException("tree size must not be negative: " + size);
        }
        if (size == 0) {
            return Hashes.emptyRoot();
        }
        return hashRanges(List.of(new Range(0, size)), source).get(0);
    }

    /** The tiles needed to compute MTH of each range. */
    public static Set<TileKey> tilesFor(List<Range> ranges) {
        Set<TileKey> keys = new LinkedHashSet<>();
        for (Range r : ranges) {
            for (NodeId node : TreeMath.perfectSubtrees(r)) {
                keys.add(tileKeyOf(node));
            }
        }
        return keys;
    }

    /** MTH(D[start:end]) of each range, read from tiles in one request. */
    public static List<byte[]> hashRanges(List<Range> ranges, TileSource source) {
        Set<TileKey> keys = tilesFor(ranges);
        Map<TileKey, byte[]> tiles = keys.isEmpty() ? Map.of() : source.readTiles(keys);
        Map<NodeId, byte[]> memo = new HashMap<>();
        List<byte[]> out = new ArrayList<>(ranges.size());
        for (Range r : ranges) {
            List<NodeId> nodes = TreeMath.perfectSubtrees(r);
            byte[] acc = nodeHash(nodes.get(nodes.size() - 1), tiles, memo);
            for (int i = nodes.size() - 2; i >= 0; i--) {
                acc = Hashes.nodeHash(nodeHash(nodes.get(i), tiles, memo), acc);
            }
            out.add(acc);
        }
        return out;
    }

    private static TileKey tileKeyOf(NodeId node) {
        int level = node.height() / TileLayout.TILE_HEIGHT;
        int rest = node.height() % TileLayout.TILE_HEIGHT;
        return TileLayout.tileOf(level, node.index() << rest);
    }

    /**
     * The hash of a perfect subtree: read directly when its height is a multiple of 8, otherwise
     * folded from the 2^r stored hashes below it inside one tile.
     */
    private static byte[] nodeHash(NodeId node, Map<TileKey, byte[]> tiles, Map<NodeId, byte[]> memo) {
        byte[] cached = memo.get(node);
        if (cached != null) {
            return cached;
        }
        int level = node.height() / TileLayout.TILE_HEIGHT;
        int rest = node.height() % TileLayout.TILE_HEIGHT;
        long firstPosition = node.index() << rest;
        TileKey key = TileLayout.tileOf(level, firstPosition);
        byte[] tile = tiles.get(key);
        int offset = (int) (firstPosition & (TileLayout.TILE_WIDTH - 1));
        int count = 1 << rest;
        if (tile == null) {
            throw new MissingTileException(key, offset + count);
        }
        if (tile.length < (offset + count) * Hashes.HASH_SIZE) {
            throw new MissingTileException(key, offset + count);
        }
        byte[] hash = PerfectTree.root(tile, offset, count);
        memo.put(node, hash);
        return hash;
    }

    /** A proof needed a tile (or part of one) that the tile source does not have. */
    public static final class MissingTileException extends IllegalStateException {
        private final TileKey key;

        MissingTileException(TileKey key, int neededWidth) {
            super("tile level " + key.level() + " index " + key.index() + " with at least " + neededWidth
                    + " hashes is not stored");
            this.key = key;
        }

        public TileKey key() {
            return key;
        }
    }
}
