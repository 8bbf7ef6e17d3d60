package org.electorallog.store;

import java.util.Map;
import org.electorallog.core.TileKey;

/**
 * A board as one proof sees it in one statement ({@link Boards#PROOF_TIP_SQL}): its tip, and the
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
}
