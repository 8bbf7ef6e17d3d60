package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ProofTest {
    static final int N = 1100;
    static final List<byte[]> LEAVES = new ArrayList<>();
    static final Map<TileKey, byte[]> TILES = new HashMap<>();
    static final List<byte[]> ROOTS = new ArrayList<>();

    @BeforeAll
    static void grow() {
        TileTree tree = TileTree.empty();
        ROOTS.add(tree.root());
        for (int i = 0; i < N; i++) {
            LEAVES.add(NaiveTree.leaf(i));
            tree.appendLeafHash(LEAVES.get(i));
            ROOTS.add(tree.root());
        }
        for (Tile t : tree.drainChangedTiles()) {
            TILES.put(t.key(), t.hashes());
        }
    }

    /** Counts requests so the test can assert one read per proof. */
    static final class CountingSource implements TileSource {
        int calls;

        @Override
        public Map<TileKey, byte[]> readTiles(Set<TileKey> keys) {
            calls++;
            Map<TileKey, byte[]> out = new HashMap<>();
            for (TileKey k : keys) {
                if (TILES.containsKey(k)) {
                    out.put(k, TILES.get(k));
                }
            }
            return out;
        }
    }

    @Test
    void inclusionProofsMatchTheReferenceAndVerify() throws Exception {
        for (int size = 1; size <= N; size++) {
            java.util.Set<Integer> indices = new java.util.TreeSet<>(List.of(0, size - 1, size / 2));
            for (int index = 0; index < size; index += Math.max(1, size / 24)) {
                indices.add(index);
            }
            for (int index : indices) {
                CountingSource src = new CountingSource();
                List<byte[]> proof = ProofBuilder.inclusion(index, size, src);
                List<byte[]> expected = NaiveTree.path(index, LEAVES, 0, size);
                assertEquals(expected.size(), proof.size());
                for (int i = 0; i < proof.size(); i++) {
                    assertArrayEquals(expected.get(i), proof.get(i));
                }
                assertEquals(proof.isEmpty() ? 0 : 1, src.calls, "one tile read per proof");
                ProofVerifier.verifyInclusion(index, size, LEAVES.get(index), proof, ROOTS.get(size));
            }
        }
    }

    @Test
    void consistencyProofsMatchTheReferenceAndVerify() throws Exception {
        for (int n = 1; n <= N; n++) {
            java.util.Set<Integer> firsts =
                    new java.util.TreeSet<>(List.of(1, n, Math.max(1, n / 2), Math.max(1, n - 1)));
            for (int m = 1; m <= n; m += (n <= 128 ? 1 : Math.max(1, n / 16))) {
                firsts.add(m);
            }
            for (int m : firsts) {
                List<byte[]> proof = ProofBuilder.consistency(m, n, new CountingSource());
                List<byte[]> expected = NaiveTree.consistency(m, LEAVES, n);
                assertEquals(expected.size(), proof.size(), m + " -> " + n);
                for (int i = 0; i < proof.size(); i++) {
                    assertArrayEquals(expected.get(i), proof.get(i));
                }
                ProofVerifier.verifyConsistency(m, n, ROOTS.get(m), ROOTS.get(n), proof);
            }
        }
    }

    @Test
    void rootAtAnySizeComesFromTiles() {
        for (int size = 0; size <= N; size++) {
            assertArrayEquals(ROOTS.get(size), ProofBuilder.rootAt(size, new CountingSource()));
        }
    }

    @Test
    void tamperedProofsFail() {
        int index = 77;
        int size = 517;
        List<byte[]> proof = ProofBuilder.inclusion(index, size, new CountingSource());
        for (int i = 0; i < proof.size(); i++) {
            List<byte[]> bad = new ArrayList<>(proof);
            byte[] h = bad.get(i).clone();
            h[5] ^= 1;
            bad.set(i, h);
            assertThrows(
                    ProofException.class,
                    () -> ProofVerifier.verifyInclusion(index, size, LEAVES.get(index), bad, ROOTS.get(size)));
        }
        assertThrows(
                ProofException.class,
                () -> ProofVerifier.verifyInclusion(index + 1, size, LEAVES.get(index), proof, ROOTS.get(size)));
        assertThrows(
                ProofException.class,
                () -> ProofVerifier.verifyInclusion(index, size + 1, LEAVES.get(index), proof, ROOTS.get(size + 1)));
        assertThrows(
                ProofException.class,
                () -> ProofVerifier.verifyInclusion(
                        index, size, LEAVES.get(index), proof.subList(0, proof.size() - 1), ROOTS.get(size)));
        assertThrows(
                ProofException.class,
                () -> ProofVerifier.verifyInclusion(size, size, LEAVES.get(index), proof, ROOTS.get(size)));
        List<byte[]> cons = ProofBuilder.consistency(100, 517, new CountingSource());
        assertThrows(
                ProofException.class,
                () -> ProofVerifier.verifyConsistency(100, 517, ROOTS.get(101), ROOTS.get(517), cons));
        assertThrows(
                ProofException.class,
                () -> ProofVerifier.verifyConsistency(100, 518, ROOTS.get(100), ROOTS.get(518), cons));
        assertThrows(
                ProofException.class,
                () -> ProofVerifier.verifyConsistency(0, 517, ROOTS.get(0), ROOTS.get(517), cons));
    }

    @Test
    void missingTilesAreReportedNotGuessed() {
        Set<TileKey> none = new HashSet<>();
        assertThrows(
                ProofBuilder.MissingTileException.class,
                () -> ProofBuilder.inclusion(3, 500, keys -> {
                    none.addAll(keys);
                    return Map.of();
                }));
        assertEquals(false, none.isEmpty());
    }
}
