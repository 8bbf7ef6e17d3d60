package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Range proofs against RFC 6962's MTH computed directly: every range of every tree up to 40 leaves
 * and random ranges of larger trees verify; a changed leaf, a shifted range, a changed, missing or
 * extra proof hash and another tree's root do not.
 */
class RangeProofTest {
    private static byte[] leaf(long i) {
        return Hashes.leafHash(("leaf " + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** MTH(D[lo:hi]) by the definition (RFC 6962 section 2.1). */
    private static byte[] mth(long lo, long hi) {
        if (hi - lo == 1) {
            return leaf(lo);
        }
        long k = TreeMath.splitPoint(hi - lo);
        return Hashes.nodeHash(mth(lo, lo + k), mth(lo + k, hi));
    }

    private static List<byte[]> proof(long a, long b, long n) {
        List<byte[]> out = new ArrayList<>();
        for (Range r : RangeProof.ranges(a, b, n)) {
            out.add(mth(r.start(), r.end()));
        }
        return out;
    }

    private static CompactRange leaves(long a, long b) {
        CompactRange c = new CompactRange(a);
        for (long i = a; i < b; i++) {
            c.append(leaf(i));
        }
        return c;
    }

    @Test
    void everyRangeOfSmallTreesVerifies() throws Exception {
        for (long n = 1; n <= 40; n++) {
            byte[] root = mth(0, n);
            for (long a = 0; a < n; a++) {
                for (long b = a + 1; b <= n; b++) {
                    assertArrayEquals(
                            root, RangeProof.root(a, b, n, leaves(a, b), proof(a, b, n)), a + ".." + b + "/" + n);
                }
            }
        }
        assertTrue(RangeProof.ranges(0, 1000, 1000).isEmpty(), "the whole tree needs no proof");
    }

    @Test
    void randomRangesOfLargerTreesVerify() {
        Random r = new Random(62);
        for (int t = 0; t < 200; t++) {
            long n = 1 + r.nextInt(5000);
            long a = r.nextInt((int) n);
            long b = a + 1 + r.nextInt((int) (n - a));
            assertTrue(RangeProof.verifies(a, b, n, leaves(a, b), proof(a, b, n), mth(0, n)), a + ".." + b + "/" + n);
        }
    }

    @Test
    void aChangedLeafShiftedRangeOrChangedProofIsRefused() {
        long n = 1000;
        long a = 300;
        long b = 700;
        byte[] root = mth(0, n);
        List<byte[]> proof = proof(a, b, n);
        CompactRange changed = new CompactRange(a);
        for (long i = a; i < b; i++) {
            changed.append(i == 500 ? leaf(10_000) : leaf(i));
        }
        assertFalse(RangeProof.verifies(a, b, n, changed, proof, root), "a changed leaf");
        assertFalse(RangeProof.verifies(a, b, n, leaves(a, b - 1), proof, root), "a dropped leaf");
        CompactRange shifted = new CompactRange(a + 1);
        for (long i = a; i < b - 1; i++) {
            shifted.append(leaf(i));
        }
        assertFalse(RangeProof.verifies(a + 1, b, n, shifted, proof(a + 1, b, n), root), "leaves moved one place");
        List<byte[]> bad = new ArrayList<>(proof);
        byte[] h = bad.get(0).clone();
        h[0] ^= 1;
        bad.set(0, h);
        assertFalse(RangeProof.verifies(a, b, n, leaves(a, b), bad, root), "a changed proof hash");
        assertThrows(
                ProofException.class, () -> RangeProof.root(a, b, n, leaves(a, b), proof.subList(0, proof.size() - 1)));
        List<byte[]> extra = new ArrayList<>(proof);
        extra.add(new byte[32]);
        assertThrows(ProofException.class, () -> RangeProof.root(a, b, n, leaves(a, b), extra));
        assertFalse(RangeProof.verifies(a, b, n, leaves(a, b), proof, mth(0, n + 1)), "another tree's root");
    }
}
