package org.electorallog.core;

/**
 * A perfect subtree of the log: the node at {@code height} (0 = leaf) and {@code index} that covers
 * leaves {@code [index * 2^height, (index + 1) * 2^height)}. Stored tiles hold exactly the nodes
 * whose height is a multiple of the tile height (C2SP tlog-tiles, "Merkle Tree").
 */
public record NodeId(int height, long index) {
    public NodeId {
        if (height < 0 || height > 63 || index < 0) {
            throw new IllegalArgumentException("bad node (height " + height + ", index " + index + ")");
        }
    }

    public long firstLeaf() {
        return index << height;
    }

    public long leafCount() {
        return 1L << height;
    }
}
