package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Subtree consistency proofs (draft-ietf-plants-merkle-tree-certs-02 section 4.4) against the naive
 * RFC 6962 definitions: every subtree of every tree up to 40 leaves proves and verifies, and each
 * changed hash, missing or extra hash, or other subtree is refused.
 */
class SubtreeProofTest {
    private static List<byte[]> leaves(int n) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(NaiveTree.leaf(i));
        }
        return out;
    }

    private static List<byte[]> proof(List<byte[]> leaves, long start, long end, long n) {
        List<byte[]> out = new ArrayList<>();
        for (Range r : SubtreeProof.ranges(start, end, n)) {
            out.add(NaiveTree.mth(leaves, (int) r.start(), (int) r.end()));
        }
        return out;
    }

    @Test
    void everySubtreeOfSmallTreesProvesAndAChangedProofIsRefused() throws ProofException {
        List<byte[]> leaves = leaves(40);
        int checked = 0;
        for (int n = 1; n <= 40; n++) {
            byte[] root = NaiveTree.mth(leaves, 0, n);
            for (int start = 0; start < n; start++) {
                for (int end = start + 1; end <= n; end++) {
                    if (!SubtreeProof.isValid(start, end)) {
                        continue;
                    }
                    byte[] hash = NaiveTree.mth(leaves, start, end);
                    List<byte[]> proof = proof(leaves, start, end, n);
                    SubtreeProof.verify(start, end, n, hash, root, proof);
                    checked++;
                    for (int i = 0; i < proof.size(); i++) {
                        List<byte[]> bad = new ArrayList<>(proof);
                        byte[] changed = bad.get(i).clone();
                        changed[7] ^= 1;
                        bad.set(i, changed);
                        int s = start, e = end, size = n;
                        assertThrows(ProofException.class, () -> SubtreeProof.verify(s, e, size, hash, root, bad));
                    }
                    int s = start, e = end, size = n;
                    byte[] otherHash = NaiveTree.mth(leaves, start, end).clone();
                    otherHash[0] ^= 1;
                    assertThrows(ProofException.class, () -> SubtreeProof.verify(s, e, size, otherHash, root, proof));
                    List<byte[]> longer = new ArrayList<>(proof);
                    longer.add(root);
                    assertThrows(ProofException.class, () -> SubtreeProof.verify(s, e, size, hash, root, longer));
                    if (!proof.isEmpty()) {
                        List<byte[]> shorter = proof.subList(0, proof.size() - 1);
                        assertThrows(ProofException.class, () -> SubtreeProof.verify(s, e, size, hash, root, shorter));
                    }
                    if (start == 0 && end < n) {
                        // a subtree from 0 is an older tree: its proof is RFC 6962's consistency proof
                        List<byte[]> rfc = NaiveTree.consistency(end, leaves, n);
                        assertEquals(rfc.size(), proof.size());
                        for (int i = 0; i < rfc.size(); i++) {
                            assertArrayEquals(rfc.get(i), proof.get(i));
                        }
                    }
                }
            }
        }
        assertTrue(checked > 500, "checked " + checked);
    }

    @Test
    void theDraftsExampleSubtreeOfFourteenLeaves() throws ProofException {
        List<byte[]> leaves = leaves(14);
        // [4, 8) in a tree of 14: the left neighbour [0, 4) and the right side [8, 14)
        List<Range> ranges = SubtreeProof.ranges(4, 8, 14);
        assertEquals(List.of(new Range(0, 4), new Range(8, 14)), ranges);
        // [8, 13) is a subtree (8 is a multiple of 8), not a node of the tree of 14
        SubtreeProof.verify(
                8, 13, 14, NaiveTree.mth(leaves, 8, 13), NaiveTree.mth(leaves, 0, 14), proof(leaves, 8, 13, 14));
        assertFalse(SubtreeProof.isValid(4, 9));
        assertFalse(SubtreeProof.isValid(6, 10));
        assertThrows(IllegalArgumentException.class, () -> SubtreeProof.ranges(6, 10, 14));
        assertThrows(
                ProofException.class, () -> SubtreeProof.verify(8, 15, 14, leaves.get(0), leaves.get(0), List.of()));
    }

    @Test
    void packagesOfAThousandLeavesProveFromTiles() throws ProofException {
        int n = 1100;
        List<byte[]> leaves = leaves(n);
        TileTree tree = TileTree.empty();
        Map<TileKey, byte[]> tiles = new HashMap<>();
        byte[] all = new byte[n * Hashes.HASH_SIZE];
        for (int i = 0; i < n; i++) {
            tree.appendLeafHash(leaves.get(i));
            System.arraycopy(leaves.get(i), 0, all, i * Hashes.HASH_SIZE, Hashes.HASH_SIZE);
        }
        tree.drainChangedTiles().forEach(t -> tiles.put(t.key(), t.hashes()));
        byte[] root = tree.root();
        // tlog-mirror's packages: [256 i, min(256 (i + 1), n)), each proved from the tiles
        for (long s = 0; s < n; s += 256) {
            long e = Math.min(s + 256, n);
            List<byte[]> proof = ProofBuilder.hashRanges(SubtreeProof.ranges(s, e, n), keys -> tiles);
            byte[] hash = SubtreeProof.hash(all, (int) s, (int) (e - s));
            assertArrayEquals(NaiveTree.mth(leaves, (int) s, (int) e), hash);
            SubtreeProof.verify(s, e, n, hash, root, proof);
        }
    }
}
