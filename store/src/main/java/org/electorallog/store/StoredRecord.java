package org.electorallog.store;

import java.time.Instant;

/**
 * One record as the projection serves it (table {@code records}, V1, with its sender key from
 * {@code senders}). Listings read the same columns without the sender and Kafka position
 * ({@code senderKey} null, {@code schemaId}, {@code partition} and {@code offset} -1); the exports
 * without statements also leave {@code statement} null ({@link RecordExports.ExportShape#FIELDS}).
 */
@SuppressWarnings("ArrayRecordComponent") // a row read to be served, never compared as a value
public record StoredRecord(
        long id,
        Instant created,
        Instant statementTime,
        short kind,
        byte[] senderKey,
        IndexedFields fields,
        String deliveryId,
        byte[] statement,
        int schemaId,
        int partition,
        long offset) {}
