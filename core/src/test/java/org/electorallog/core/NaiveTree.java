package org.electorallog.core;

import java.util.ArrayList;
import java.util.List;

/** The naive recursive RFC 6962 section 2.1 definitions, as a reference for tests. */
final class NaiveTree {
    private NaiveTree() {}

    static byte[] mth(List<byte[]> leaves, int start, int end) {
        int n = end - start;
        if (n == 0) {
            return Hashes.emptyRoot();
        }
        if (n == 1) {
            return leaves.get(start);
        }
        int k = Integer.highestOneBit(n - 1);
        return Hashes.nodeHash(mth(leaves, start, start + k), mth(leaves, start + k, end));
    }

    static List<byte[]> path(int m, List<byte[]> leaves, int start, int end) {
        int n = end - start;
        List<byte[]> out = new ArrayList<>();
        if (n <= 1) {
            return out;
        }
        int k = Integer.highestOneBit(n - 1);
        if (m < k) {
            out.addAll(path(m, leaves, start, start + k));
            out.add(mth(leaves, start + k, end));
        } else {
            out.addAll(path(m - k, leaves, start + k, end));
            out.add(mth(leaves, start, start + k));
        }
        return out;
    }

    static List<byte[]> consistency(int m, List<byte[]> leaves, int n) {
        return subproof(m, leaves, 0, n, true);
    }

    private static List<byte[]> subproof(int m, List<byte[]> leaves, int start, int end, boolean b) {
        int n = end - start;
        List<byte[]> out = new ArrayList<>();
        if (m == n) {
            if (!b) {
                out.add(mth(leaves, start, end));
            }
            return out;
        }
        int k = Integer.highestOneBit(n - 1);
        if (m <= k) {
            out.addAll(subproof(m, leaves, start, start + k, b));
            out.add(mth(leaves, start + k, end));
        } else {
            out.addAll(subproof(m - k, leaves, start + k, end, false));
            out.add(mth(leaves, start, start + k));
        }
        return out;
    }

    static byte[] leaf(int i) {
        return Hashes.leafHash(("leaf " + i).getBytes());
    }
}
