package org.electorallog.store;

/**
 * A board as one request sees it in one statement ({@link BoardTips#TIP_SQL}): the board, its tree
 * size, and its latest checkpoint (or latest witnessed one) with that checkpoint's witness
 * cosignature lines. A proof or a checkpoint request reads it in one round trip instead of three or
 * four (issue 17).
 *
 * @param board        the board
 * @param size         its tree size (board_state)
 * @param checkpoint   its latest (witnessed) checkpoint, null when it has none
 * @param cosignatures the checkpoint's cosignature lines by witness, concatenated ("" without any)
 */
public record BoardTip(BoardRow board, long size, CheckpointRow checkpoint, String cosignatures) {
    /**
     * The checkpoint note with its witness cosignature lines appended (C2SP signed-note: more
     * signature lines); null without a checkpoint.
     */
    public String cosignedNote() {
        return checkpoint == null ? null : checkpoint.note() + cosignatures;
    }
}
