package org.electorallog.projector;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends the dead letters that are found while a batch is written (events PostgreSQL refused, found
 * by the isolation path, delivery-key collisions, senders the registry refuses, and signatures the
 * policy refuses, which are verified a batch at once), before the transaction that moves the stored
 * offset past them commits.
 *
 * <p>These cannot go through Kafka Streams' transaction: a batch is written after Streams may
 * already have committed the events' offsets, so a dead letter forwarded then would be lost if the
 * process died before the next Streams commit. Sent and acknowledged (idempotent, acks=all) before
 * PostgreSQL commits, a dead letter is never lost; a crash between the two repeats it (same
 * {@code dlq.source.*} headers), which a reader of the dead letters can recognise. Shared by the
 * tasks of one projector; created on first use.
 */
final class DeadLetterPublisher implements AutoCloseable {
    private final Properties config;
    private final String topic;
    private KafkaProducer<String, byte[]> producer;

    DeadLetterPublisher(Properties kafkaClient, String topic) {
        this.config = new Properties();
        this.config.putAll(kafkaClient);
        this.config.put(ProducerConfig.ACKS_CONFIG, "all");
        this.config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        this.config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        this.config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        this.topic = topic;
    }

    /** Sends one dead letter and waits for Kafka's acknowledgement; throws when it is not acknowledged. */
    void publish(DeadLetter letter) {
        KafkaProducer<String, byte[]> p = producer();
        try {
            p.send(new ProducerRecord<>(
                            topic, null, letter.timestamp(), letter.key(), letter.value(), letter.headers()))
                    .get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending a dead letter to " + topic, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new DeadLetterNotSentException("dead letter not acknowledged by " + topic + ": " + e.getMessage(), e);
        }
    }

    private synchronized KafkaProducer<String, byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
    }

    /** Kafka did not take a dead letter: an infrastructure failure, retried; nothing is committed past the event. */
    static final class DeadLetterNotSentException extends RuntimeException {
        DeadLetterNotSentException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
