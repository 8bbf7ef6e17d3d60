package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TileTreeTest {

    @Test
    void emptyTreeHasTheEmptyRoot() {
        assertEquals(
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                Hex.encode(TileTree.empty().root()));
    }

    @Test
    void rootMatchesTheNaiveDefinitionAtEverySizeUpTo1100() {
        TileTree tree = TileTree.empty();
        List<byte[]> leaves = new ArrayList<>();
        for (int i = 0; i < 1100; i++) {
            byte[] leaf = NaiveTree.leaf(i);
            leaves.add(leaf);
            tree.appendLeafHash(leaf);
            assertArrayEquals(NaiveTree.mth(leaves, 0, leaves.size()), tree.root(), "size " + (i + 1));
        }
    }

    @Test
    void tilesWrittenByTheGrowingTreeEqualTilesFromScratchAtEverySize() {
        int n = 70_000;
        TileTree tree = TileTree.empty();
        Map<TileKey, byte[]> stored = new HashMap<>();
        List<byte[]> leaves = new ArrayList<>();
        Map<Long, byte[]> scratch = new HashMap<>();
        for (int i = 0; i < n; i++) {
            byte[] leaf = NaiveTree.leaf(i);
            leaves.add(leaf);
            tree.appendLeafHash(leaf);
            long size = tree.size();
            List<Tile> changed = tree.drainChangedTiles();
            // the level-0 edge tile changes at every append, and each changed tile is exactly the
            // tile computed from the leaves, at its width for this size (partial tiles at every level)
            assertTrue(changed.stream()
                    .anyMatch(t -> t.key().level() == 0 && t.key().index() == (size - 1) / 256));
            for (Tile t : changed) {
                int width = TileLayout.width(t.key().level(), t.key().index(), size);
                assertEquals(width, t.width(), "width of " + t + " at size " + size);
                assertArrayEquals(
                        scratchTile(leaves, scratch, t.key().level(), t.key().index(), width),
                        t.hashes(),
                        t + " at size " + size);
                stored.put(t.key(), t.hashes());
            }
            // a tree restored from the stored edge tiles has the same root, at sizes around tile edges
            if (size % 256 <= 1 || size % 65_536 <= 1 || i % 9_973 == 0) {
                assertArrayEquals(tree.root(), TileTree.restore(size, stored).root(), "restore at size " + size);
            }
        }
        TileTree restored = TileTree.restore(tree.size(), stored);
        for (int k = 0; k < 600; k++) {
            byte[] leaf = NaiveTree.leaf(n + k);
            tree.appendLeafHash(leaf);
            restored.appendLeafHash(leaf);
        }
        assertArrayEquals(tree.root(), restored.root());
    }

    /** Hashes at height 8*level for positions [idx*256, idx*256+width), from the leaves (full subtrees memoized). */
    private static byte[] scratchTile(List<byte[]> leaves, Map<Long, byte[]> memo, int level, long idx, int width) {
        byte[] out = new byte[width * 32];
        int span = 1 << (8 * level);
        for (int p = 0; p < width; p++) {
            long position = idx * 256 + p;
            long key = ((long) level << 56) | position;
            byte[] h = level == 0 ? leaves.get((int) position) : memo.get(key);
            if (h == null) {
                int start = (int) (position * span);
                h = NaiveTree.mth(leaves, start, start + span);
                memo.put(key, h);
            }
            System.arraycopy(h, 0, out, p * 32, 32);
        }
        return out;
    }

    @Test
    void restoreRefusesMissingEdgeTiles() {
        assertThrows(IllegalStateException.class, () -> TileTree.restore(300, Map.of()));
    }
}
