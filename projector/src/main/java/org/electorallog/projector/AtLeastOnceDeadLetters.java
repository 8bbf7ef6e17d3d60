package org.electorallog.projector;

import org.electorallog.schemas.BadEventException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dead letters found while a batch is written, on the batch writer's thread (a signature or a
 * sender the policy refuses, a delivery-key collision, an event PostgreSQL refuses): sent and
 * acknowledged by {@link DeadLetterPublisher} before the transaction that moves the stored offset
 * past them commits, so none is lost; a crash between the two sends one again (decision 61). The
 * stream thread's are exactly once ({@link ExactlyOnceDeadLetters}).
 */
final class AtLeastOnceDeadLetters {
    private static final Logger LOG = LoggerFactory.getLogger(AtLeastOnceDeadLetters.class);

    private final DeadLetterPublisher publisher;
    private final ProjectorMetrics metrics;
    private final String topic;
    private final int partition;
    private final int maxBytes;

    AtLeastOnceDeadLetters(
            DeadLetterPublisher publisher, ProjectorMetrics metrics, String topic, int partition, int maxBytes) {
        this.publisher = publisher;
        this.metrics = metrics;
        this.topic = topic;
        this.partition = partition;
        this.maxBytes = maxBytes;
    }

    /** Sends one and waits for Kafka's acknowledgement ({@link DeadLetterPublisher.DeadLetterNotSentException} otherwise). */
    void send(PendingEvent e, BadEventException.Reason reason, String message) {
        publisher.publish(DeadLetter.of(
                e.key(),
                e.value(),
                e.kafkaTimestamp(),
                e.headers(),
                new DeadLetter.Source(topic, partition, e.offset()),
                reason,
                message,
                maxBytes,
                System.currentTimeMillis()));
        metrics.deadLetter(reason);
        LOG.warn("dead-lettered {}-{}@{}: {} {}", topic, partition, e.offset(), reason, message);
    }
}
