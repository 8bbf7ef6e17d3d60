package org.electorallog.projector;

import org.apache.kafka.common.header.Headers;
import org.electorallog.core.Hashes;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.StatementKinds;
import org.electorallog.store.IndexedFields;
import org.electorallog.store.RecordContent;

/**
 * A valid event waiting in a batch: the decoded statement, where it came from, and the original
 * Kafka record (key, value, headers), kept so that an event PostgreSQL refuses can be dead-lettered
 * with its original bytes. Its record's content (encoded for COPY, the delivery ID hashed) and its
 * RFC 6962 leaf hash are computed with it, on the thread that decodes, so that the batch writer only
 * frames and appends them (decision 87).
 */
@SuppressWarnings("ArrayRecordComponent") // an event in a batch, never compared as a value
record PendingEvent(
        DecodedStatement statement,
        int partition,
        long offset,
        long kafkaTimestamp,
        String key,
        byte[] value,
        Headers headers,
        RecordContent content,
        byte[] leafHash) {
    PendingEvent(
            DecodedStatement statement,
            int partition,
            long offset,
            long kafkaTimestamp,
            String key,
            byte[] value,
            Headers headers) {
        this(
                statement,
                partition,
                offset,
                kafkaTimestamp,
                key,
                value,
                headers,
                content(statement, partition, offset),
                Hashes.leafHash(statement.canonicalBytes()));
    }

    /** What the event's row in records holds from the statement and its place in the topic. */
    private static RecordContent content(DecodedStatement s, int partition, long offset) {
        return new RecordContent(
                s.statementTimestamp(),
                (short) StatementKinds.code(s.kind()),
                new IndexedFields(s.userId(), s.username(), s.electionId(), s.areaId(), s.ballotId()),
                s.deliveryId(),
                s.canonicalBytes(),
                s.schemaId(),
                partition,
                offset,
                s.senderSignature(),
                s.systemSignature(),
                s.eventType(),
                s.error());
    }
}
