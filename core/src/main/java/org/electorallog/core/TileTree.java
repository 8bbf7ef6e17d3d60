package org.electorallog.core;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A growing RFC 6962 tree that keeps only its right edge in memory: at each tile level the hashes
 * of the one partial tile on the right edge (at most 255 per level, so O(log n) overall), never all
 * leaves. Appending k leaves costs O(k + log n) hashes. It reports the tiles that changed
 * (C2SP tlog-tiles) so a store can persist exactly those.
 *
 * <p>Not thread-safe: one writer per board.
 */
public final class TileTree {
    /** Right-edge hashes of the partial tile at each level; index = tile level. */
    private final List<ByteArrayOutputStream> edge = new ArrayList<>();
    /** Tiles changed since the last {@link #drainChangedTiles()}, by key (full tiles and partial edges). */
    private final Map<TileKey, byte[]> changed = new LinkedHashMap<>();

    private final List<Boolean> edgeDirty = new ArrayList<>();
    private long size;

    private TileTree() {}

    /** A new, empty tree. */
    public static TileTree empty() {
        return new TileTree();
    }

    /**
     * Restores a tree of {@code size} leaves from its right-edge partial tiles: for each level L
     * whose width at this size is not 0 mod 256, the stored tile {@code (L, (size >> 8L) >> 8)}; it
     * may be wider than needed (only its prefix is used). Use {@link #edgeTiles(long)} to list the
     * keys to load.
     */
    public static TileTree restore(long size, Map<TileKey, byte[]> tiles) {
        TileTree t = new TileTree();
        t.size = size;
        for (EdgeTile e : edgeTiles(size)) {
            byte[] stored = tiles.get(e.key());
            int need = e.width() * Hashes.HASH_SIZE;
            if (stored == null || stored.length < need) {
                throw new IllegalStateException("cannot restore tree of size " + size + ": edge tile level "
                        + e.key().level() + " index " + e.key().index() + " needs " + e.width() + " hashes, has "
                        + (stored == null ? 0 : stored.length / Hashes.HASH_SIZE));
            }
            t.level(e.key().level()).write(stored, 0, need);
        }
        return t;
    }

    /** A right-edge tile: its key and its width at the given size. */
    public record EdgeTile(TileKey key, int width) {}

    /** The partial right-edge tiles of a tree of {@code size} leaves, from level 0 up. */
    public static List<EdgeTile> edgeTiles(long size) {
        List<EdgeTile> out = new ArrayList<>();
        for (int level = 0; ; level++) {
            long hashesAtLevel = size >>> (TileLayout.TILE_HEIGHT * level);
            if (hashesAtLevel == 0) {
                break;
            }
            int width = (int) (hashesAtLevel & (TileLayout.TILE_WIDTH - 1));
            if (width > 0) {
                out.add(new EdgeTile(new TileKey(level, hashesAtLevel >>> TileLayout.TILE_HEIGHT), width));
            }
        }
        return out;
    }

    public long size() {
        return size;
    }

    /** Appends one leaf by its RFC 6962 leaf hash. */
    public void appendLeafHash(byte[] leafHash) {
        Hashes.checkHash(leafHash, "leaf");
        add(0, leafHash);
        size++;
    }

    private void add(int level, byte[] hash) {
        ByteArrayOutputStream tile = level(level);
        tile.write(hash, 0, hash.length);
        markDirty(level);
        if (tile.size() == TileLayout.FULL_TILE_BYTES) {
            byte[] full = tile.toByteArray();
            long positionsBelow = positions(level);
            changed.put(new TileKey(level, (positionsBelow - 1) >>> TileLayout.TILE_HEIGHT), full);
            tile.reset();
            edgeDirty.set(level, false);
            add(level + 1, PerfectTree.root(full, 0, TileLayout.TILE_WIDTH));
        }
    }

    /** How many hashes exist at tile level {@code level} once the leaf being added is counted. */
    private long positions(int level) {
        return (size + 1) >>> (TileLayout.TILE_HEIGHT * level);
    }

    private ByteArrayOutputStream level(int level) {
        while (edge.size() <= level) {
            edge.add(new ByteArrayOutputStream(TileLayout.FULL_TILE_BYTES));
            edgeDirty.add(false);
        }
        return edge.get(level);
    }

    private void markDirty(int level) {
        edgeDirty.set(level, true);
    }

    /** RFC 6962 MTH of the whole tree, computed from the right edge in O(log n) hashes. */
    public byte[] root() {
        if (size == 0) {
            return Hashes.emptyRoot();
        }
        List<byte[]> subtrees = new ArrayList<>();
        for (int level = edge.size() - 1; level >= 0; level--) {
            byte[] hashes = edge.get(level).toByteArray();
            int count = hashes.length / Hashes.HASH_SIZE;
            int offset = 0;
            for (int bit = TileLayout.TILE_HEIGHT - 1; bit >= 0; bit--) {
                int group = 1 << bit;
                if ((count & group) != 0) {
                    subtrees.add(PerfectTree.root(hashes, offset, group));
                    offset += group;
                }
            }
        }
        byte[] acc = subtrees.get(subtrees.size() - 1);
        for (int i = subtrees.size() - 2; i >= 0; i--) {
            acc = Hashes.nodeHash(subtrees.get(i), acc);
        }
        return acc;
    }

    /**
     * The tiles that changed since the last call, each with its full current contents (full tiles
     * that completed, and the partial right-edge tiles that grew), then forgets them.
     */
    public List<Tile> drainChangedTiles() {
        List<Tile> out = new ArrayList<>(changed.size() + edge.size());
        for (Map.Entry<TileKey, byte[]> e : changed.entrySet()) {
            out.add(new Tile(e.getKey(), e.getValue()));
        }
        changed.clear();
        for (int level = 0; level < edge.size(); level++) {
            if (edgeDirty.get(level) && edge.get(level).size() > 0) {
                long hashesAtLevel = size >>> (TileLayout.TILE_HEIGHT * level);
                out.add(new Tile(
                        new TileKey(level, hashesAtLevel >>> TileLayout.TILE_HEIGHT),
                        edge.get(level).toByteArray()));
            }
            edgeDirty.set(level, false);
        }
        return out;
    }

    @Override
    public String toString() {
        return "TileTree[size=" + size + ", root=" + Arrays.toString(root()) + "]";
    }
}
