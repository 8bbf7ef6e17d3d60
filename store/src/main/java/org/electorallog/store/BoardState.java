package org.electorallog.store;

/**
 * A board with its tree as table {@code board_state} (V1) holds it.
 *
 * @param board             the board
 * @param size              the number of records in its tree
 * @param root              the RFC 9162 root hash at {@code size} (32 bytes; never compared by equals)
 * @param lastCreatedMillis the latest created time of its records, or null when it has none
 * @param duplicatesDropped repeated delivery IDs the projector dropped
 * @param sealedMillis      when the board was sealed (its BOARD_SEALED record's created time, V17),
 *                          or null while it is open; a sealed board's size and root never change
 * @param committedFrom     the board's first record in the committed form (V23), or null while it
 *                          has none: from it on, no statement holding a personal value in the clear
 */
@SuppressWarnings("ArrayRecordComponent") // a row read and written, never compared as a value
public record BoardState(
        BoardRow board,
        long size,
        byte[] root,
        Long lastCreatedMillis,
        long duplicatesDropped,
        Long sealedMillis,
        Long committedFrom) {
    /** Whether the board is sealed. */
    public boolean sealed() {
        return sealedMillis != null;
    }
}
