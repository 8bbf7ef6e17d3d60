package org.electorallog.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The leaves {@code [start, end)} of a tree folded as they come, in memory of at most one hash a
 * level: the range's maximal aligned perfect subtrees (RFC 6962 section 2.1 nodes), left to right,
 * each with its hash. What a verifier of a range proof ({@link RangeProof#root}) keeps of millions
 * of leaves it read in order.
 */
public final class CompactRange {
    private final long start;
    private long end;
    private final List<NodeId> nodes = new ArrayList<>();
    private final List<byte[]> hashes = new ArrayList<>();

    /** An empty range beginning at leaf {@code start}. */
    public CompactRange(long start) {
        if (start < 0) {
            throw new IllegalArgumentException("a range starts at a leaf index, not " + start);
        }
        this.start = start;
        this.end = start;
    }

    /** Appends the leaf hash of leaf {@link #end()}. */
    public void append(byte[] leafHash) {
        if (leafHash.length != Hashes.HASH_SIZE) {
            throw new IllegalArgumentException("a leaf hash is 32 bytes, not " + leafHash.length);
        }
        NodeId node = new NodeId(0, end++);
        byte[] hash = leafHash;
        while (!nodes.isEmpty()) {
            NodeId last = nodes.get(nodes.size() - 1);
            if (last.height() != node.height() || last.index() % 2 != 0 || last.index() + 1 != node.index()) {
                break;
            }
            hash = Hashes.nodeHash(hashes.remove(hashes.size() - 1), hash);
            nodes.remove(nodes.size() - 1);
            node = new NodeId(node.height() + 1, last.index() / 2);
        }
        nodes.add(node);
        hashes.add(hash);
    }

    public long start() {
        return start;
    }

    /** The index of the next leaf: the range is [start, end). */
    public long end() {
        return end;
    }

    /** The range's perfect subtrees, left to right. */
    public List<NodeId> nodes() {
        return List.copyOf(nodes);
    }

    /** Their hashes, in the same order. */
    public List<byte[]> hashes() {
        return List.copyOf(hashes);
    }
}
