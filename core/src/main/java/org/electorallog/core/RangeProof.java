package org.electorallog.core;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A range proof: that leaves {@code [start, end)} are exactly the leaves at those places of the
 * tree of {@code size} leaves whose root a checkpoint signs. The proof is the hashes MTH of the
 * maximal subtrees outside the range in the RFC 6962 section 2.1 decomposition of D[0:size], left
 * to right ({@link #ranges}); a verifier folds the range's own leaves ({@link CompactRange}) and
 * those hashes back into the root ({@link #root}). A range that is the whole tree needs none. RFC
 * 6962 defines inclusion and consistency proofs only; this is the same recursion, the subtrees on
 * the range's two edges taking the place of an audit path (as transparency-dev's compact ranges do).
 */
public final class RangeProof {
    private RangeProof() {}

    /** The ranges whose MTH make up the proof of {@code [start, end)} in a tree of {@code size}, in proof order. */
    public static List<Range> ranges(long start, long end, long size) {
        check(start, end, size);
        List<Range> out = new ArrayList<>();
        outside(0, size, start, end, out);
        return out;
    }

    private static void outside(long lo, long hi, long start, long end, List<Range> out) {
        if (hi <= start || lo >= end) {
            out.add(new Range(lo, hi));
        } else if (lo < start || hi > end) {
            long k = TreeMath.splitPoint(hi - lo);
            outside(lo, lo + k, start, end, out);
            outside(lo + k, hi, start, end, out);
        }
    }

    /**
     * The root of the tree of {@code size} leaves whose leaves {@code [start, end)} are those
     * {@code range} holds, with {@code proof} in the order of {@link #ranges}; thrown when the proof
     * has too few or too many hashes or the range is not {@code [start, end)}.
     */
    public static byte[] root(long start, long end, long size, CompactRange range, List<byte[]> proof)
            throws ProofException {
        check(start, end, size);
        if (range.start() != start || range.end() != end) {
            throw new ProofException("the leaves given cover [" + range.start() + ", " + range.end() + "), not ["
                    + start + ", " + end + ")");
        }
        Map<NodeId, byte[]> inside = new HashMap<>();
        List<NodeId> nodes = range.nodes();
        List<byte[]> hashes = range.hashes();
        for (int i = 0; i < nodes.size(); i++) {
            inside.put(nodes.get(i), hashes.get(i));
        }
        Iterator<byte[]> p = proof.iterator();
        byte[] root = hash(0, size, start, end, inside, p);
        if (p.hasNext()) {
            throw new ProofException("the range proof has more hashes than the range [" + start + ", " + end
                    + ") of a tree of " + size + " needs");
        }
        return root;
    }

    /** Whether {@link #root} of these gives {@code expected}. */
    public static boolean verifies(
            long start, long end, long size, CompactRange range, List<byte[]> proof, byte[] expected) {
        try {
            return MessageDigest.isEqual(root(start, end, size, range, proof), expected);
        } catch (ProofException e) {
            return false;
        }
    }

    private static byte[] hash(
            long lo, long hi, long start, long end, Map<NodeId, byte[]> inside, Iterator<byte[]> proof)
            throws ProofException {
        if (hi <= start || lo >= end) {
            if (!proof.hasNext()) {
                throw new ProofException("the range proof lacks the hash of leaves [" + lo + ", " + hi + ")");
            }
            byte[] h = proof.next();
            if (h.length != Hashes.HASH_SIZE) {
                throw new ProofException("a range proof hash is " + h.length + " bytes, not 32");
            }
            return h;
        }
        if (start <= lo && hi <= end) {
            return inside(lo, hi, inside);
        }
        long k = TreeMath.splitPoint(hi - lo);
        return Hashes.nodeHash(
                hash(lo, lo + k, start, end, inside, proof), hash(lo + k, hi, start, end, inside, proof));
    }

    /** MTH of leaves [lo, hi) inside the range, from the range's perfect subtrees. */
    private static byte[] inside(long lo, long hi, Map<NodeId, byte[]> nodes) throws ProofException {
        long n = hi - lo;
        if (Long.bitCount(n) == 1 && lo % n == 0) {
            byte[] h = nodes.get(new NodeId(Long.numberOfTrailingZeros(n), lo / n));
            if (h != null) {
                return h;
            }
        }
        if (n == 1) {
            throw new ProofException("leaf " + lo + " is not among the leaves given");
        }
        long k = TreeMath.splitPoint(n);
        return Hashes.nodeHash(inside(lo, lo + k, nodes), inside(lo + k, hi, nodes));
    }

    private static void check(long start, long end, long size) {
        if (start < 0 || end <= start || end > size) {
            throw new IllegalArgumentException(
                    "a range proof needs 0 <= start < end <= size, got [" + start + ", " + end + ") of " + size);
        }
    }
}
