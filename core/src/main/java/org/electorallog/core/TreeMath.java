package org.electorallog.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Pure index arithmetic of RFC 6962 / RFC 9162 Merkle trees: which leaf ranges make up a proof and
 * how a range splits into perfect subtrees. No hashing happens here.
 */
public final class TreeMath {
    private TreeMath() {}

    /** The largest power of two strictly smaller than {@code n} (RFC 6962 section 2.1, "k"); n must be at least 2. */
    public static long splitPoint(long n) {
        if (n < 2) {
            throw new IllegalArgumentException("split point needs n >= 2, got " + n);
        }
        return Long.highestOneBit(n - 1);
    }

    /**
     * The leaf ranges whose hashes form the inclusion proof of leaf {@code index} in a tree of
     * {@code size} leaves, in proof order (bottom up), per RFC 6962 section 2.1.1 PATH(m, D[n]).
     */
    public static List<Range> inclusionRanges(long index, long size) {
        if (size <= 0) {
            throw new IllegalArgumentException("inclusion proof needs a non-empty tree, size " + size);
        }
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("leaf index " + index + " is not below tree size " + size);
        }
        List<Range> out = new ArrayList<>();
        path(index, 0, size, out);
        return out;
    }

    private static void path(long m, long start, long end, List<Range> out) {
        long n = end - start;
        if (n == 1) {
            return;
        }
        long k = splitPoint(n);
        if (m < k) {
            path(m, start, start + k, out);
            out.add(new Range(start + k, end));
        } else {
            path(m - k, start + k, end, out);
            out.add(new Range(start, start + k));
        }
    }

    /**
     * The leaf ranges whose hashes form the consistency proof between tree sizes {@code first} and
     * {@code second}, in proof order, per RFC 6962 section 2.1.2 PROOF(m, D[n]) = SUBPROOF(m, D[n], true).
     * Requires {@code 0 < first <= second}; equal sizes give an empty proof.
     */
    public static List<Range> consistencyRanges(long first, long second) {
        if (first <= 0) {
            throw new IllegalArgumentException("consistency proof needs a non-empty first tree, size " + first);
        }
        if (second < first) {
            throw new IllegalArgumentException("consistency proof from size " + first + " to smaller size " + second);
        }
        List<Range> out = new ArrayList<>();
        subproof(first, 0, second, true, out);
        return out;
    }

    private static void subproof(long m, long start, long end, boolean whole, List<Range> out) {
        long n = end - start;
        if (m == n) {
            if (!whole) {
                out.add(new Range(start, end));
            }
            return;
        }
        long k = splitPoint(n);
        if (m <= k) {
            subproof(m, start, start + k, whole, out);
            out.add(new Range(start + k, end));
        } else {
            subproof(m - k, start + k, end, false, out);
            out.add(new Range(start, start + k));
        }
    }

    /**
     * Splits a range into the perfect subtrees whose hashes fold (right to left) into MTH(D[start:end]).
     * Every range in an RFC 6962 proof starts at a multiple of the largest power of two not above its
     * size, so each piece is aligned; a range that is not so aligned is refused.
     */
    public static List<NodeId> perfectSubtrees(Range range) {
        List<NodeId> out = new ArrayList<>();
        long start = range.start();
        long remaining = range.size();
        while (remaining > 0) {
            long width = Long.highestOneBit(remaining);
            if (start % width != 0) {
                throw new IllegalArgumentException(
                        "range [" + range.start() + ", " + range.end() + ") is not aligned to perfect subtrees");
            }
            int height = Long.numberOfTrailingZeros(width);
            out.add(new NodeId(height, start >>> height));
            start += width;
            remaining -= width;
        }
        return out;
    }
}
