package org.electorallog.projector;

import org.apache.kafka.common.header.Headers;
import org.electorallog.schemas.DecodedStatement;

/**
 * A valid event waiting in a batch: the decoded statement, where it came from, and the original
 * Kafka record (key, value, headers), kept so that an event PostgreSQL refuses can be dead-lettered
 * with its original bytes.
 */
@SuppressWarnings("ArrayRecordComponent") // an event in a batch, never compared as a value
record PendingEvent(
        DecodedStatement statement,
        int partition,
        long offset,
        long kafkaTimestamp,
        String key,
        byte[] value,
        Headers headers) {}
