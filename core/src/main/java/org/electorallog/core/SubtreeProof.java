package org.electorallog.core;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * Subtrees and subtree consistency proofs of draft-ietf-plants-merkle-tree-certs-02 section 4 (the
 * proofs C2SP tlog-mirror's {@code add-entries} packages carry): a subtree {@code [start, end)} is
 * valid when {@code start} is a multiple of the smallest power of two not below {@code end - start};
 * its hash is MTH(D[start:end]); its consistency proof with the tree of {@code n} leaves lets a
 * verifier that knows the subtree hash and the tree's root check that the one is part of the other.
 * With {@code start = 0} the proof is RFC 6962's consistency proof from size {@code end}.
 */
public final class SubtreeProof {
    private SubtreeProof() {}

    /** Section 4.1: whether {@code [start, end)} is a subtree. */
    public static boolean isValid(long start, long end) {
        if (start < 0 || end <= start) {
            return false;
        }
        long size = end - start;
        long ceil = Long.bitCount(size) == 1 ? size : Long.highestOneBit(size) << 1;
        return start % ceil == 0;
    }

    /**
     * Section 4.4.1 SUBTREE_PROOF(start, end, D_n): the leaf ranges whose hashes form the proof, in
     * proof order. It walks down as RFC 6962 SUBPROOF does: a side the subtree is not in contributes
     * its hash; the subtree's own node, which the verifier knows, contributes nothing; a subtree that
     * starts a node it does not fill is RFC 6962's consistency proof from its end inside that node.
     */
    public static List<Range> ranges(long start, long end, long n) {
        if (!isValid(start, end)) {
            throw new IllegalArgumentException("[" + start + ", " + end + ") is not a subtree");
        }
        if (end > n) {
            throw new IllegalArgumentException("subtree [" + start + ", " + end + ") ends past tree size " + n);
        }
        List<Range> out = new ArrayList<>();
        subproof(start, end, 0, n, true, out);
        return out;
    }

    private static void subproof(long start, long end, long lo, long hi, boolean known, List<Range> out) {
        if (start == lo && end == hi) {
            if (!known) {
                out.add(new Range(lo, hi));
            }
            return;
        }
        long k = TreeMath.splitPoint(hi - lo);
        if (end <= lo + k) {
            subproof(start, end, lo, lo + k, known, out);
            out.add(new Range(lo + k, hi));
        } else if (start >= lo + k) {
            subproof(start, end, lo + k, hi, known, out);
            out.add(new Range(lo, lo + k));
        } else {
            // start == lo (a valid subtree that crosses the split starts the node): RFC 6962 SUBPROOF
            // with m = end - lo, whose right part the verifier does not know on its own
            subproof(lo + k, end, lo + k, hi, false, out);
            out.add(new Range(lo, lo + k));
        }
    }

    /**
     * Section 4.4.3: verifies that the subtree {@code [start, end)} with hash {@code subtreeHash} is
     * consistent with the tree of {@code n} leaves whose root is {@code root}.
     */
    public static void verify(long start, long end, long n, byte[] subtreeHash, byte[] root, List<byte[]> proof)
            throws ProofException {
        if (!isValid(start, end)) {
            throw new ProofException("[" + start + ", " + end + ") is not a subtree");
        }
        if (end > n) {
            throw new ProofException("subtree [" + start + ", " + end + ") ends past tree size " + n);
        }
        for (byte[] p : proof) {
            if (p == null || p.length != Hashes.HASH_SIZE) {
                throw new ProofException("a subtree consistency proof hash is not 32 bytes");
            }
        }
        long fn = start;
        long sn = end - 1;
        long tn = n - 1;
        if (sn == tn) {
            while (fn != sn) {
                fn >>>= 1;
                sn >>>= 1;
                tn >>>= 1;
            }
        } else {
            while (fn != sn && (sn & 1) == 1) {
                fn >>>= 1;
                sn >>>= 1;
                tn >>>= 1;
            }
        }
        int i = 0;
        byte[] fr;
        byte[] sr;
        if (fn == sn) {
            fr = subtreeHash;
            sr = subtreeHash;
        } else {
            if (proof.isEmpty()) {
                throw new ProofException("the subtree consistency proof is empty but the subtree is not a node");
            }
            fr = proof.get(0);
            sr = proof.get(0);
            i = 1;
        }
        for (; i < proof.size(); i++) {
            if (tn == 0) {
                throw new ProofException("the subtree consistency proof is too long");
            }
            byte[] c = proof.get(i);
            if ((sn & 1) == 1 || sn == tn) {
                if (fn < sn) {
                    fr = Hashes.nodeHash(c, fr);
                }
                sr = Hashes.nodeHash(c, sr);
                while ((sn & 1) == 0 && sn != 0) {
                    fn >>>= 1;
                    sn >>>= 1;
                    tn >>>= 1;
                }
            } else {
                sr = Hashes.nodeHash(sr, c);
            }
            fn >>>= 1;
            sn >>>= 1;
            tn >>>= 1;
        }
        if (tn != 0) {
            throw new ProofException("the subtree consistency proof is too short");
        }
        if (!MessageDigest.isEqual(fr, subtreeHash)) {
            throw new ProofException("the subtree consistency proof does not lead to the subtree's hash");
        }
        if (!MessageDigest.isEqual(sr, root)) {
            throw new ProofException("the subtree consistency proof does not lead to the root at size " + n);
        }
    }

    /**
     * RFC 6962 section 2.1 MTH of {@code count} leaf hashes stored back to back from {@code offset}
     * (in hashes) in {@code leafHashes}: a subtree's hash from its leaves.
     */
    public static byte[] hash(byte[] leafHashes, int offset, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a subtree has at least one leaf");
        }
        if (count == 1) {
            byte[] h = new byte[Hashes.HASH_SIZE];
            System.arraycopy(leafHashes, offset * Hashes.HASH_SIZE, h, 0, Hashes.HASH_SIZE);
            return h;
        }
        int k = (int) TreeMath.splitPoint(count);
        return Hashes.nodeHash(hash(leafHashes, offset, k), hash(leafHashes, offset + k, count - k));
    }
}
