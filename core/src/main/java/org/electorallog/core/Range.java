package org.electorallog.core;

/**
 * A half-open range of leaf indices {@code [start, end)}: the leaves D[start:end] of RFC 6962
 * section 2.1, whose Merkle tree hash MTH(D[start:end]) is one hash of a proof.
 */
public record Range(long start, long end) {
    public Range {
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException("bad leaf range [" + start + ", " + end + ")");
        }
    }

    public long size() {
        return end - start;
    }
}
