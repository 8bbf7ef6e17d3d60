package org.electorallog.store;

import org.electorallog.statement.ProjectedOpenings;

/**
 * One record as the full audit reads it: the stored columns to compare with the canonical bytes,
 * the signatures, and in the committed form its error column and stored openings (V21, core
 * ProjectedOpenings; null when it has none). {@code senderKey} is null when sender_id resolves to
 * no key in senders.
 */
@SuppressWarnings("ArrayRecordComponent") // a row read to be checked, never compared as a value
public record AuditRow(
        long id,
        String deliveryId,
        byte[] statement,
        short kind,
        Long statementMillis,
        byte[] senderKey,
        IndexedFields fields,
        byte[] senderSignature,
        byte[] systemSignature,
        String error,
        byte[] openings) {
    /** The columns that hold the personal values its stored openings leave out. */
    public ProjectedOpenings.Columns personalColumns() {
        return new ProjectedOpenings.Columns(fields.userId(), fields.username(), error);
    }
}
