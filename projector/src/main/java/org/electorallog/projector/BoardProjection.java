package org.electorallog.projector;

import org.electorallog.core.TileTree;

/**
 * The in-memory state of one board held by the task that owns its partition: its ID, origin,
 * the right edge of its tree and the last created time. Valid only while it matches the database;
 * dropped after any failed batch.
 */
final class BoardProjection {
    final short boardId;
    final String name;
    final String origin;
    final TileTree tree;
    long lastCreatedMillis;
    /** The first record ID without a records partition, as far as known (0 until read; decision 86). */
    long partitionsEnd;
    /** When the board was sealed (its BOARD_SEALED record's created time), or null while it is open. */
    Long sealedMillis;
    /** The board's first record in the committed form (store V23), or null while it has none. */
    Long committedFrom;

    BoardProjection(short boardId, String name, String origin, TileTree tree, long lastCreatedMillis) {
        this.boardId = boardId;
        this.name = name;
        this.origin = origin;
        this.tree = tree;
        this.lastCreatedMillis = lastCreatedMillis;
    }
}
