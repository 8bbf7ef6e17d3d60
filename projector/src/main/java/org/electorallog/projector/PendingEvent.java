package org.electorallog.projector;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.electorallog.statement.ProjectedOpenings;
import org.electorallog.store.IndexedFields;
import org.electorallog.store.RecordContent;

/**
 * A valid event waiting in a batch: the decoded statement, where it came from, and the original
 * Kafka record (key, value, headers), kept so that an event PostgreSQL refuses can be dead-lettered
 * with its original bytes. Its record's content (encoded for COPY, the delivery ID hashed) and its
 * RFC 6962 leaf hash are computed with it, on the thread that decodes, so that the batch writer only
 * frames and appends them (decision 87). A statement in the committed form carries its checked
 * openings ({@link PersonalOpening}), stored in its record's row; none when it has no personal value
 * or its data key was erased.
 */
@SuppressWarnings("ArrayRecordComponent") // an event in a batch, never compared as a value
record PendingEvent(
        DecodedStatement statement,
        List<Opening> openings,
        int partition,
        long offset,
        long kafkaTimestamp,
        String key,
        byte[] value,
        Headers headers,
        RecordContent content) {
    PendingEvent(
            DecodedStatement statement,
            int partition,
            long offset,
            long kafkaTimestamp,
            String key,
            byte[] value,
            Headers headers) {
        this(new PersonalOpening.Opened(statement, List.of()), partition, offset, kafkaTimestamp, key, value, headers);
    }

    PendingEvent(
            PersonalOpening.Opened opened,
            int partition,
            long offset,
            long kafkaTimestamp,
            String key,
            byte[] value,
            Headers headers) {
        this(
                opened.statement(),
                opened.openings(),
                partition,
                offset,
                kafkaTimestamp,
                key,
                value,
                headers,
                content(opened.statement(), opened.openings(), partition, offset));
    }

    /** The statement's leaf hash (its entry's, computed once where it was decoded). */
    byte[] leafHash() {
        return statement.entry().leafHash();
    }

    /** The data key of its openings; null when it has none. */
    String keyId() {
        return openings.isEmpty() ? null : statement.committed().sealed().keyId();
    }

    /** This event as projected once its data key is erased: its commitments only, no value. */
    PendingEvent withoutValues() {
        DecodedStatement committedOnly = statement.opened(Map.of());
        return new PendingEvent(
                committedOnly,
                List.of(),
                partition,
                offset,
                kafkaTimestamp,
                key,
                value,
                headers,
                content(committedOnly, List.of(), partition, offset));
    }

    /**
     * What the event's row in records holds from the statement and its place in the topic, with the
     * openings in their stored form (core ProjectedOpenings, store V21) when it has any.
     */
    static RecordContent content(DecodedStatement s, List<Opening> openings, int partition, long offset) {
        return new RecordContent(
                s.statementTimestamp(),
                s.entry(),
                new IndexedFields(s.userId(), s.username(), s.electionId(), s.areaId(), s.ballotId()),
                s.board(),
                s.deliveryId(),
                s.schemaId(),
                partition,
                offset,
                s.senderSignature(),
                s.systemSignature(),
                s.eventType(),
                s.error(),
                openings.isEmpty() ? null : ProjectedOpenings.encode(openings));
    }
}
