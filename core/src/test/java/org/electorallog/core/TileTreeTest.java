package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TileTreeTest {

    @Test
    void emptyTreeHasTheEmptyRoot() {
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
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
    void changedTilesEqualTilesComputedFromScratch() {
        int n = 70_000;
        TileTree tree = TileTree.empty();
        Map<TileKey, byte[]> stored = new HashMap<>();
        List<byte[]> leaves = new ArrayList<>();
        java.util.Random random = new java.util.Random(7);
        int i = 0;
        while (i < n) {
            int batch = 1 + random.nextInt(700);
            for (int j = 0; j < batch && i < n; j++, i++) {
                byte[] leaf = NaiveTree.leaf(i);
                leaves.add(leaf);
                tree.appendLeafHash(leaf);
            }
            for (Tile t : tree.drainChangedTiles()) {
                stored.put(t.key(), t.hashes());
            }
            // every tile that exists at this size, with its exact width, equals the from-scratch tile
            long size = tree.size();
            for (int level = 0; (size >>> (8 * level)) > 0; level++) {
                long lastIndex = ((size >>> (8 * level)) - 1) >>> 8;
                for (long idx = Math.max(0, lastIndex - 1); idx <= lastIndex; idx++) {
                    int width = TileLayout.width(level, idx, size);
                    byte[] expected = scratchTile(leaves, level, idx, width);
                    byte[] got = stored.get(new TileKey(level, idx));
                    assertArrayEquals(expected, java.util.Arrays.copyOf(got, width * 32),
                            "tile " + level + "/" + idx + " at size " + size);
                    assertEquals(width * 32, got.length, "width of tile " + level + "/" + idx + " at size " + size);
                }
            }
        }
        // and a tree restored from the stored edge tiles carries on identically
        TileTree restored = TileTree.restore(tree.size(), stored);
        assertArrayEquals(tree.root(), restored.root());
        for (int k = 0; k < 600; k++) {
            byte[] leaf = NaiveTree.leaf(n + k);
            tree.appendLeafHash(leaf);
            restored.appendLeafHash(leaf);
        }
        assertArrayEquals(tree.root(), restored.root());
        assertEquals(tree.drainChangedTiles().size() > 0, true);
    }

    /** Hashes at height 8*level for positions [idx*256, idx*256+width), from the leaves directly. */
    private static byte[] scratchTile(List<byte[]> leaves, int level, long idx, int width) {
        byte[] out = new byte[width * 32];
        int span = 1 << (8 * level);
        for (int p = 0; p < width; p++) {
            int start = (int) ((idx * 256 + p) * span);
            System.arraycopy(NaiveTree.mth(leaves, start, start + span), 0, out, p * 32, 32);
        }
        return out;
    }

    @Test
    void restoreRefusesMissingEdgeTiles() {
        assertThrows(IllegalStateException.class, () -> TileTree.restore(300, Map.of()));
    }
}
