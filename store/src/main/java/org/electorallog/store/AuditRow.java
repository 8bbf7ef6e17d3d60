package org.electorallog.store;

/**
 * One record as the full audit reads it: the stored columns to compare with the canonical bytes,
 * and the signatures. {@code senderKey} is null when sender_id resolves to no key in senders.
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
        byte[] systemSignature) {}
