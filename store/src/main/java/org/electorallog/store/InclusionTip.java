package org.electorallog.store;

import java.util.Map;
import org.electorallog.core.TileKey;

/**
 * A board as one record proof sees it in one statement ({@link Boards#INCLUSION_TIP_SQL}): its tip,
 * and the stored tiles an inclusion proof of the record at the latest checkpoint's size can read
 * (the record's path and the tree's right edge at each level; empty without a checkpoint, or when
 * the record is not in it).
 *
 * @param tip   the board, its size and its latest checkpoint
 * @param tiles those tiles by key, as stored (a partial tile may be wider than at the checkpoint)
 */
public record InclusionTip(BoardTip tip, Map<TileKey, byte[]> tiles) {
    public InclusionTip {
        tiles = Map.copyOf(tiles);
    }
}
