package org.electorallog.witness;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.Range;
import org.electorallog.core.SubtreeProof;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileTree;
import org.electorallog.core.WitnessRequest;

/** A log in memory for witness tests: its tiles, checkpoints at any size and add-checkpoint bodies. */
final class GrowingLog {
    final String origin;
    final NoteSigner signer;
    private final TileTree tree = TileTree.empty();
    private final Map<TileKey, byte[]> tiles = new HashMap<>();

    GrowingLog(String origin, NoteSigner signer) {
        this.origin = origin;
        this.signer = signer;
    }

    GrowingLog grow(long to) {
        while (tree.size() < to) {
            tree.appendLeafHash(Hashes.leafHash(("entry " + tree.size()).getBytes(StandardCharsets.UTF_8)));
        }
        for (Tile t : tree.drainChangedTiles()) {
            tiles.put(t.key(), t.hashes());
        }
        return this;
    }

    byte[] root(long size) {
        return ProofBuilder.rootAt(size, keys -> tiles);
    }

    String checkpoint(long size) {
        return new Checkpoint(origin, size, root(size)).sign(signer);
    }

    /** MTH(D[start:end]). */
    byte[] rangeHash(long start, long end) {
        return ProofBuilder.hashRanges(List.of(new Range(start, end)), keys -> tiles)
                .get(0);
    }

    /** The subtree consistency proof of [start, end) in the tree of {@code size} (draft-ietf-plants-merkle-tree-certs 4.4). */
    List<byte[]> subtreeProof(long start, long end, long size) {
        return ProofBuilder.hashRanges(SubtreeProof.ranges(start, end, size), keys -> tiles);
    }

    List<byte[]> consistency(long from, long to) {
        return from == 0 || from == to ? List.of() : ProofBuilder.consistency(from, to, keys -> tiles);
    }

    /** The add-checkpoint body for the checkpoint at {@code size} with a proof from {@code old}. */
    String request(long old, long size) {
        return new WitnessRequest(old, consistency(old, size), checkpoint(size)).format();
    }
}
