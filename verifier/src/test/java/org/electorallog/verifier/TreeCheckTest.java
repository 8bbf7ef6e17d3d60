package org.electorallog.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.Hashes;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileTree;
import org.junit.jupiter.api.Test;

/**
 * The tree check both verify-board and the audit run: an honest tree of 70,000 leaves (full and
 * partial tiles at levels 0, 1 and 2) passes; a changed leaf, a changed or missing tile, a root
 * that is not the leaves' and a checkpoint whose root is not the tree's at its size (size 0
 * included) are each reported with their kind and place.
 */
class TreeCheckTest {
    private static final int N = 70_000;

    private static byte[] leaf(long i) {
        return Hashes.leafHash(("entry " + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** The honest tiles of N leaves, each at its final width, and the root. */
    private static final Map<TileKey, byte[]> TILES = new HashMap<>();

    private static final byte[] ROOT;

    static {
        TileTree t = TileTree.empty();
        for (long i = 0; i < N; i++) {
            t.appendLeafHash(leaf(i));
        }
        for (Tile tile : t.drainChangedTiles()) {
            TILES.put(tile.key(), tile.hashes());
        }
        ROOT = t.root();
    }

    private static List<Problem> walk(Map<TileKey, byte[]> tiles, Map<Long, byte[]> checkpoints, byte[] root)
            throws Exception {
        List<Problem> problems = new ArrayList<>();
        TreeCheck check = new TreeCheck(checkpoints, problems::add);
        TreeCheck.Tiles source = (level, index, width) -> {
            byte[] s = tiles.get(new TileKey(level, index));
            return s == null || s.length != width * 32 ? null : s;
        };
        for (long i = 0; i < N; i++) {
            check.append(leaf(i), tiles.get(new TileKey(0, i / 256)));
            if (i % 1000 == 999) {
                check.compareFull(source);
            }
        }
        check.finish(source, N, root, "the checkpoint");
        return problems;
    }

    @Test
    void anHonestTreePasses() throws Exception {
        TileTree at300 = TileTree.empty();
        for (long i = 0; i < 300; i++) {
            at300.appendLeafHash(leaf(i));
        }
        assertEquals(List.of(), walk(TILES, Map.of(0L, Hashes.emptyRoot(), 300L, at300.root(), (long) N, ROOT), ROOT));
    }

    @Test
    void aChangedLeafIsReportedAtItsEntryAndItsTile() throws Exception {
        Map<TileKey, byte[]> tiles = new HashMap<>(TILES);
        byte[] t3 = tiles.get(new TileKey(0, 3)).clone();
        t3[5 * 32] ^= 1;
        tiles.put(new TileKey(0, 3), t3);
        List<Problem> p = walk(tiles, Map.of(), ROOT);
        assertTrue(p.stream().anyMatch(x -> x.kind() == Problem.Kind.LEAF && x.index() == 3 * 256 + 5), p.toString());
        assertTrue(p.stream().anyMatch(x -> x.kind() == Problem.Kind.TILE && x.index() == 768), p.toString());
        assertEquals(2, p.size(), p.toString());
    }

    @Test
    void aChangedUpperTileOrAMissingPartialOneIsReported() throws Exception {
        Map<TileKey, byte[]> tiles = new HashMap<>(TILES);
        byte[] level1 = tiles.get(new TileKey(1, 0)).clone();
        level1[100] ^= 1;
        tiles.put(new TileKey(1, 0), level1);
        tiles.remove(new TileKey(2, 0)); // partial at 70,000 leaves
        List<Problem> p = walk(tiles, Map.of(), ROOT);
        assertEquals(2, p.size(), p.toString());
        assertTrue(p.stream()
                .anyMatch(x -> x.kind() == Problem.Kind.TILE && x.message().contains("tile/1/000 differs")));
        assertTrue(p.stream()
                .anyMatch(x -> x.kind() == Problem.Kind.TILE && x.message().contains("is missing")));
    }

    @Test
    void aRootOrCheckpointThatIsNotTheLeavesIsReported() throws Exception {
        byte[] other = Hashes.sha256(new byte[] {1});
        List<Problem> p = walk(TILES, Map.of(0L, other, 300L, other), other);
        assertEquals(
                List.of(Problem.Kind.CHECKPOINT, Problem.Kind.CHECKPOINT, Problem.Kind.ROOT),
                p.stream().map(Problem::kind).toList(),
                p.toString());
        assertEquals(
                List.of(0L, 300L, Problem.NONE), p.stream().map(Problem::index).toList());
    }
}
