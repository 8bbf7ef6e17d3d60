package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.electorallog.core.TileKey;
import org.junit.jupiter.api.Test;

/** The full tile cache alone: only full tiles kept, least recently used dropped, a proof's source asks for the rest. */
class FullTilesTest {
    static byte[] tile(int width, int seed) {
        byte[] t = new byte[width * 32];
        java.util.Arrays.fill(t, (byte) seed);
        return t;
    }

    @Test
    void keepsFullTilesOnlyAndDropsTheLeastRecentlyUsed() {
        FullTiles c = new FullTiles(2);
        c.offer("b", 0, 7, tile(255, 1));
        assertNull(c.get("b", 0, 7), "a partial tile is never kept");
        c.offer("b", 0, 1, tile(256, 1));
        c.offer("b", 0, 2, tile(256, 2));
        assertArrayEquals(tile(256, 1), c.get("b", 0, 1)); // 1 is now the most recently used
        c.offer("b", 0, 3, tile(256, 3));
        assertNull(c.get("b", 0, 2), "the least recently used went");
        assertNull(c.get("other", 0, 1), "tiles are kept per board");
        assertEquals(2, c.size());
        assertEquals(1, c.hits.sum());
        assertEquals(3, c.misses.sum());
        FullTiles none = new FullTiles(0);
        none.offer("b", 0, 1, tile(256, 1));
        assertEquals(0, none.size());
    }

    @Test
    void aProofsSourceReadsOnlyWhatIsNotHeld() {
        FullTiles c = new FullTiles(10);
        c.offer("b", 0, 0, tile(256, 9));
        List<Set<TileKey>> asked = new ArrayList<>();
        Map<TileKey, byte[]> out = c.over("b", keys -> {
                    asked.add(Set.copyOf(keys));
                    Map<TileKey, byte[]> m = new HashMap<>();
                    keys.forEach(k -> m.put(k, k.index() == 1 ? tile(256, 1) : tile(3, 2)));
                    return m;
                })
                .readTiles(Set.of(new TileKey(0, 0), new TileKey(0, 1), new TileKey(0, 2)));
        assertEquals(List.of(Set.of(new TileKey(0, 1), new TileKey(0, 2))), asked, "one read, the tiles not held");
        assertArrayEquals(tile(256, 9), out.get(new TileKey(0, 0)));
        assertArrayEquals(tile(3, 2), out.get(new TileKey(0, 2)));
        assertArrayEquals(tile(256, 1), c.get("b", 0, 1), "the full tile the database gave is kept");
        assertNull(c.get("b", 0, 2));
    }
}
