package org.electorallog.store;

/**
 * A signed checkpoint as table {@code checkpoints} (V1) holds it.
 *
 * @param size the tree size it commits to
 * @param root the root hash at that size (never compared by equals)
 * @param note the signed note (C2SP tlog-checkpoint, signed-note)
 */
@SuppressWarnings("ArrayRecordComponent") // a row, never compared as a value
public record CheckpointRow(long size, byte[] root, String note) {}
