package org.electorallog.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A virtual log of any size (up to 2^40 and beyond) for sparse property checks: every leaf hash is
 * L except leaf {@code special}, which is S. The naive recursive RFC 6962 definitions stay cheap:
 * a range without the special leaf hashes like any range of its size (memoized), so MTH of any range
 * costs O(log^2 n). It also serves tiles computed on demand.
 */
final class SparseTree implements TileSource {
    static final byte[] L = Hashes.leafHash("leaf".getBytes(StandardCharsets.UTF_8));
    static final byte[] S = Hashes.leafHash("special".getBytes(StandardCharsets.UTF_8));
    private static final Map<Long, byte[]> UNIFORM = new HashMap<>();

    final long size;
    final long special;
    int tileReads;

    SparseTree(long size, long special) {
        this.size = size;
        this.special = special;
    }

    byte[] leaf(long i) {
        return i == special ? S : L;
    }

    static synchronized byte[] uniform(long n) {
        if (n == 1) {
            return L;
        }
        byte[] h = UNIFORM.get(n);
        if (h == null) {
            long k = Long.highestOneBit(n - 1);
            h = Hashes.nodeHash(uniform(k), uniform(n - k));
            UNIFORM.put(n, h);
        }
        return h;
    }

    /** MTH(D[start:end]) by the recursive definition of RFC 6962 section 2.1. */
    byte[] mth(long start, long end) {
        long n = end - start;
        if (n == 0) {
            return Hashes.emptyRoot();
        }
        if (special < start || special >= end) {
            return uniform(n);
        }
        if (n == 1) {
            return S;
        }
        long k = Long.highestOneBit(n - 1);
        return Hashes.nodeHash(mth(start, start + k), mth(start + k, end));
    }

    byte[] root() {
        return mth(0, size);
    }

    /** RFC 6962 section 2.1.1 PATH(m, D[start:end]). */
    List<byte[]> path(long m, long start, long end) {
        List<byte[]> out = new ArrayList<>();
        long n = end - start;
        if (n <= 1) {
            return out;
        }
        long k = Long.highestOneBit(n - 1);
        if (m < k) {
            out.addAll(path(m, start, start + k));
            out.add(mth(start + k, end));
        } else {
            out.addAll(path(m - k, start + k, end));
            out.add(mth(start, start + k));
        }
        return out;
    }

    /** RFC 6962 section 2.1.2 PROOF(m, D[0:size]). */
    List<byte[]> consistency(long m) {
        return subproof(m, 0, size, true);
    }

    private List<byte[]> subproof(long m, long start, long end, boolean b) {
        List<byte[]> out = new ArrayList<>();
        long n = end - start;
        if (m == n) {
            if (!b) {
                out.add(mth(start, end));
            }
            return out;
        }
        long k = Long.highestOneBit(n - 1);
        if (m <= k) {
            out.addAll(subproof(m, start, start + k, b));
            out.add(mth(start + k, end));
        } else {
            out.addAll(subproof(m - k, start + k, end, false));
            out.add(mth(start, start + k));
        }
        return out;
    }

    @Override
    public Map<TileKey, byte[]> readTiles(Set<TileKey> keys) {
        tileReads++;
        Map<TileKey, byte[]> out = new HashMap<>();
        for (TileKey k : keys) {
            int width = TileLayout.width(k.level(), k.index(), size);
            if (width == 0) {
                continue;
            }
            byte[] tile = new byte[width * 32];
            long span = 1L << (8 * k.level());
            for (int p = 0; p < width; p++) {
                long first = (k.index() * 256 + p) * span;
                System.arraycopy(mth(first, first + span), 0, tile, p * 32, 32);
            }
            out.put(k, tile);
        }
        return out;
    }
}
