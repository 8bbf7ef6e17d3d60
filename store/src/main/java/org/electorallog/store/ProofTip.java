package org.electorallog.store;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileSource;

/**
 * A board as one proof sees it in one statement ({@link BoardTips#PROOF_TIP_SQL}): its tip, and the
 * stored tiles on the paths of the proof's leaves and of the latest checkpoint's right edge (empty
 * when there are no such tiles: no checkpoint and no leaf in the tree).
 *
 * @param tip   the board, its size and its latest checkpoint
 * @param tiles those tiles by key, as stored (a partial tile may be wider than at the checkpoint)
 */
public record ProofTip(BoardTip tip, Map<TileKey, byte[]> tiles) {
    public ProofTip {
        tiles = Map.copyOf(tiles);
    }

    /**
     * These tiles as the source of a proof in a tree of {@code size} leaves whose nodes lie on the
     * paths of {@code leaves} and of the tree's right edge ({@link TileLayout#pathTiles}). A proof
     * that asks for a tile outside that set is refused with the tiles it named: the statement did
     * not read them, so a missing one there is a wrong bound, not a damaged projection. The set is
     * computed when the proof reads, after the caller has checked the leaves are in the tree.
     */
    public TileSource source(long size, long... leaves) {
        return keys -> {
            Set<TileKey> bound = TileLayout.pathTiles(size, leaves);
            if (!bound.containsAll(keys)) {
                Set<TileKey> outside = new LinkedHashSet<>(keys);
                outside.removeAll(bound);
                throw new IllegalStateException("a proof in a tree of size " + size + " asked for tiles " + outside
                        + " outside the paths its statement read (" + bound + ")");
            }
            return tiles;
        };
    }
}
