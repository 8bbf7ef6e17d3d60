package org.electorallog.core;

import java.security.MessageDigest;
import java.util.List;

/**
 * Verification of inclusion and consistency proofs exactly as RFC 9162 sections 2.1.3.2 and
 * 2.1.4.2 describe. Each check throws {@link ProofException} with the reason on failure.
 */
public final class ProofVerifier {
    private ProofVerifier() {}

    /**
     * RFC 9162 section 2.1.3.2: verifies that {@code leafHash} is leaf {@code index} of the tree of
     * {@code size} leaves whose root is {@code root}.
     */
    public static void verifyInclusion(long index, long size, byte[] leafHash, List<byte[]> proof, byte[] root)
            throws ProofException {
        checkHash(leafHash, "leaf");
        checkHash(root, "root");
        if (size <= 0) {
            throw new ProofException("inclusion proof for an empty tree (size " + size + ")");
        }
        if (index < 0 || index >= size) {
            throw new ProofException("leaf index " + index + " is not below tree size " + size);
        }
        int expected = TreeMath.inclusionRanges(index, size).size();
        if (proof.size() != expected) {
            throw new ProofException("inclusion proof for leaf " + index + " at size " + size + " must have " + expected
                    + " hashes, got " + proof.size());
        }
        long fn = index;
        long sn = size - 1;
        byte[] r = leafHash;
        for (byte[] p : proof) {
            checkHash(p, "proof");
            if (sn == 0) {
                throw new ProofException("inclusion proof is too long");
            }
            if ((fn & 1) == 1 || fn == sn) {
                r = Hashes.nodeHash(p, r);
                if ((fn & 1) == 0) {
                    while ((fn & 1) == 0 && fn != 0) {
                        fn >>>= 1;
                        sn >>>= 1;
                    }
                }
            } else {
                r = Hashes.nodeHash(r, p);
            }
            fn >>>= 1;
            sn >>>= 1;
        }
        if (sn != 0) {
            throw new ProofException("inclusion proof is too short");
        }
        if (!MessageDigest.isEqual(r, root)) {
            throw new ProofException("inclusion proof of leaf " + index + " does not lead to the root at size " + size);
        }
    }

    /**
     * RFC 9162 section 2.1.4.2: verifies that the tree of {@code firstSize} leaves with root
     * {@code firstRoot} is a prefix of the tree of {@code secondSize} leaves with root {@code secondRoot}.
     */
    public static void verifyConsistency(
            long firstSize, long secondSize, byte[] firstRoot, byte[] secondRoot, List<byte[]> proof)
            throws ProofException {
        checkHash(firstRoot, "first root");
        checkHash(secondRoot, "second root");
        if (firstSize <= 0) {
            throw new ProofException("consistency proof from an empty tree (size " + firstSize + ")");
        }
        if (secondSize < firstSize) {
            throw new ProofException("consistency proof from size " + firstSize + " to smaller size " + secondSize);
        }
        if (firstSize == secondSize) {
            if (!proof.isEmpty()) {
                throw new ProofException("consistency proof between equal sizes must be empty");
            }
            if (!MessageDigest.isEqual(firstRoot, secondRoot)) {
                throw new ProofException("different roots for the same size " + firstSize);
            }
            return;
        }
        int expected = TreeMath.consistencyRanges(firstSize, secondSize).size();
        if (proof.size() != expected) {
            throw new ProofException("consistency proof from " + firstSize + " to " + secondSize + " must have "
                    + expected + " hashes, got " + proof.size());
        }
        for (byte[] p : proof) {
            checkHash(p, "proof");
        }
        int i = 0;
        byte[] first;
        if (Long.bitCount(firstSize) == 1) {
            first = firstRoot;
        } else {
            first = proof.get(i++);
        }
        long fn = firstSize - 1;
        long sn = secondSize - 1;
        while ((fn & 1) == 1) {
            fn >>>= 1;
            sn >>>= 1;
        }
        byte[] fr = first;
        byte[] sr = first;
        for (; i < proof.size(); i++) {
            byte[] c = proof.get(i);
            if (sn == 0) {
                throw new ProofException("consistency proof is too long");
            }
            if ((fn & 1) == 1 || fn == sn) {
                fr = Hashes.nodeHash(c, fr);
                sr = Hashes.nodeHash(c, sr);
                if ((fn & 1) == 0) {
                    while ((fn & 1) == 0 && fn != 0) {
                        fn >>>= 1;
                        sn >>>= 1;
                    }
                }
            } else {
                sr = Hashes.nodeHash(sr, c);
            }
            fn >>>= 1;
            sn >>>= 1;
        }
        if (sn != 0) {
            throw new ProofException("consistency proof is too short");
        }
        if (!MessageDigest.isEqual(fr, firstRoot)) {
            throw new ProofException("consistency proof does not lead to the root at size " + firstSize);
        }
        if (!MessageDigest.isEqual(sr, secondRoot)) {
            throw new ProofException("consistency proof does not lead to the root at size " + secondSize);
        }
    }

    private static void checkHash(byte[] h, String what) throws ProofException {
        if (h == null || h.length != Hashes.HASH_SIZE) {
            throw new ProofException(
                    what + " hash must be " + Hashes.HASH_SIZE + " bytes, got " + (h == null ? "none" : h.length));
        }
    }
}
