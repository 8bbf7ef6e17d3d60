package org.electorallog.core;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * The proof that a record is in the log, for a client that already trusts a checkpoint
 * (trustedSize, trustedRoot): an inclusion proof at the trusted size when the record is below it;
 * otherwise an inclusion proof at the current size plus a consistency proof from the trusted size
 * to the current size (RFC 9162 sections 2.1.3 and 2.1.4).
 *
 * @param index        the record (leaf index)
 * @param trustedSize  the size of the checkpoint the client trusts
 * @param size         the size the inclusion proof is for (trustedSize, or the current size)
 * @param inclusion    RFC 6962 audit path of {@code index} at {@code size}
 * @param consistency  RFC 6962 consistency proof from trustedSize to size (empty when size = trustedSize)
 * @param leafHash     the leaf hash at {@code index} as the log holds it (a level-0 tile entry, C2SP
 *                     tlog-tiles), read in the same tile request: what a client compares with the hash
 *                     of the statement it holds (RFC 6962 section 2.1)
 */
@SuppressWarnings("ArrayRecordComponent") // a proof to serialise, never compared as a value
public record RecordProof(
        long index, long trustedSize, long size, List<byte[]> inclusion, List<byte[]> consistency, byte[] leafHash) {
    public RecordProof {
        inclusion = List.copyOf(inclusion);
        consistency = List.copyOf(consistency);
        Hashes.checkHash(leafHash, "leaf hash");
    }

    /**
     * Builds the proof from tiles of a log whose current size is {@code currentSize}, reading every
     * tile it needs, the record's own leaf hash included, in one request. A trusted checkpoint that is not a prefix of this log is a
     * {@link LogDivergenceException}.
     */
    public static RecordProof build(
            long index, long trustedSize, byte[] trustedRoot, long currentSize, TileSource source)
            throws LogDivergenceException {
        Hashes.checkHash(trustedRoot, "trusted root");
        if (trustedSize < 1) {
            throw new IllegalArgumentException("trusted checkpoint size must be at least 1, got " + trustedSize);
        }
        if (trustedSize > currentSize) {
            throw new LogDivergenceException(
                    trustedSize,
                    "trusted checkpoint has size " + trustedSize + " but this log has only " + currentSize
                            + " records");
        }
        if (index < 0 || index >= currentSize) {
            throw new IllegalArgumentException("record " + index + " is not in the log of size " + currentSize);
        }
        long size = index < trustedSize ? trustedSize : currentSize;
        List<Range> ranges = new ArrayList<>();
        ranges.add(new Range(0, trustedSize));
        ranges.add(new Range(index, index + 1));
        List<Range> inclusionRanges = TreeMath.inclusionRanges(index, size);
        ranges.addAll(inclusionRanges);
        List<Range> consistencyRanges = size == trustedSize ? List.of() : TreeMath.consistencyRanges(trustedSize, size);
        ranges.addAll(consistencyRanges);
        List<byte[]> hashes = ProofBuilder.hashRanges(ranges, source);
        if (!MessageDigest.isEqual(hashes.get(0), trustedRoot)) {
            throw new LogDivergenceException(
                    trustedSize,
                    "this log's root at size " + trustedSize
                            + " differs from the trusted checkpoint's root: the checkpoint is not of this log");
        }
        int i = 2;
        List<byte[]> inclusion = hashes.subList(i, i + inclusionRanges.size());
        i += inclusionRanges.size();
        List<byte[]> consistency = hashes.subList(i, i + consistencyRanges.size());
        return new RecordProof(index, trustedSize, size, inclusion, consistency, hashes.get(1));
    }

    /**
     * Verifies the proof for a record whose leaf hash is {@code leafHash}, against the trusted
     * checkpoint and (when the proof goes past it) the root at {@code size}, which the caller takes
     * from a newer signed checkpoint.
     */
    public void verify(byte[] leafHash, byte[] trustedRoot, byte[] rootAtSize) throws ProofException {
        if (size == trustedSize) {
            if (!consistency.isEmpty()) {
                throw new ProofException("a proof at the trusted size carries no consistency proof");
            }
            ProofVerifier.verifyInclusion(index, trustedSize, leafHash, inclusion, trustedRoot);
            return;
        }
        if (index < trustedSize) {
            throw new ProofException("record " + index + " is below the trusted size: prove it at that size");
        }
        ProofVerifier.verifyConsistency(trustedSize, size, trustedRoot, rootAtSize, consistency);
        ProofVerifier.verifyInclusion(index, size, leafHash, inclusion, rootAtSize);
    }
}
