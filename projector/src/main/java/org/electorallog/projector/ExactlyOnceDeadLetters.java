package org.electorallog.projector;

import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.electorallog.schemas.BadEventException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dead letters found on the stream thread, as an event is read (it cannot be decoded or breaks
 * a rule): forwarded to the dead-letter sink inside Kafka Streams' transaction, so each is written
 * exactly once, with the consumed offsets it goes with. An event read again below PostgreSQL's
 * stored offset is forwarded again: its earlier copy was aborted with the transaction that Kafka
 * did not commit. Those found while a batch is written go by {@link AtLeastOnceDeadLetters}.
 */
final class ExactlyOnceDeadLetters {
    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceDeadLetters.class);
    /** The name of the topology's dead-letter sink. */
    static final String SINK = "dead-letters";

    private final ProcessorContext<String, byte[]> context;
    private final String topic;
    private final int partition;
    private final int maxBytes;

    ExactlyOnceDeadLetters(ProcessorContext<String, byte[]> context, String topic, int partition, int maxBytes) {
        this.context = context;
        this.topic = topic;
        this.partition = partition;
        this.maxBytes = maxBytes;
    }

    void forward(Record<String, byte[]> record, long offset, BadEventException e) {
        DeadLetter d = DeadLetter.of(
                record.key(),
                record.value(),
                record.timestamp(),
                record.headers(),
                new DeadLetter.Source(topic, partition, offset),
                e.reason(),
                e.getMessage(),
                maxBytes,
                System.currentTimeMillis());
        context.forward(new Record<>(d.key(), d.value(), d.timestamp(), d.headers()), SINK);
        LOG.warn("dead-lettered {}-{}@{}: {} {}", topic, partition, offset, e.reason(), e.getMessage());
    }
}
