package org.electorallog.projector;

import org.electorallog.schemas.DecodedStatement;

/** A valid event waiting in a batch: the decoded statement and where it came from. */
record PendingEvent(DecodedStatement statement, int partition, long offset, long kafkaTimestamp) {
}
