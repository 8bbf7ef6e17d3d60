package org.electorallog.projector;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.electorallog.store.PartitionLease;
import org.electorallog.store.Projection;
import org.electorallog.store.ProjectionException;

/**
 * Taking a partition when a task starts (BRIEF section 3, invariant 1: PostgreSQL's stored next
 * offset is the truth): the lease is taken in PostgreSQL (its epoch bumped, which fences any earlier
 * owner), the checkpoints a predecessor left unsigned are signed, and Kafka is asked two things: that
 * it still has every event after the stored offset, and how far Kafka Streams committed. Kafka
 * Streams commits Kafka before the batch reaches PostgreSQL, so a committed position past the stored
 * offset is a gap, which {@link #readGap} reads from the topic with a consumer of its own.
 */
final class PartitionTakeover {
    private final ProjectorSettings settings;
    private final Projection transactions;
    private final KafkaPositions positions;
    private final TopicPartition tp;

    PartitionTakeover(ProjectorSettings settings, Projection transactions, KafkaPositions positions, int partition) {
        this.settings = settings;
        this.transactions = transactions;
        this.positions = positions;
        this.tp = new TopicPartition(settings.topic(), partition);
    }

    /** Takes the lease and signs what a predecessor that died between a batch and its checkpoint left. */
    PartitionLease take(CheckpointScheduler checkpoints) {
        try {
            PartitionLease lease = transactions.autocommit(c -> c.acquire(tp.topic(), tp.partition()));
            transactions.commit(c -> {
                checkpoints.signUncheckpointed(c);
                return null;
            });
            return lease;
        } catch (ProjectionException e) {
            throw new IllegalStateException("cannot take partition " + tp + " in PostgreSQL: " + e.getMessage(), e);
        }
    }

    /**
     * Kafka's committed offset of the partition (-1 when none), after making sure the topic still
     * has every event from {@code storedOffset}: when retention or {@code deleteRecords} removed some
     * before they were projected, projecting on from the log start would skip them silently.
     */
    long committedOffset(long storedOffset) {
        long logStart = positions.logStart(tp);
        if (logStart > storedOffset) {
            throw deleted(storedOffset, logStart);
        }
        return positions.committed(tp);
    }

    /** Where the events of a gap go, in offset order. */
    @FunctionalInterface
    interface GapReader {
        void read(ConsumerRecord<byte[], byte[]> event);
    }

    /** Reads the committed events from {@code from} up to (not including) {@code until} into {@code reader}. */
    void readGap(long from, long until, GapReader reader) {
        Properties p = settings.kafkaClient();
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // never jump: an offset that is gone is an error, not a reason to start elsewhere
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(settings.batchMaxRecords()));
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, from);
            while (consumer.position(tp) < until) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() >= until) {
                        break;
                    }
                    reader.read(r);
                }
            }
        } catch (OffsetOutOfRangeException e) {
            Long logStart = e.offsetOutOfRangePartitions().get(tp);
            throw deleted(from, logStart == null ? from + 1 : Math.max(from + 1, logStart));
        }
    }

    private ProjectionStoppedException deleted(long storedOffset, long logStart) {
        return new ProjectionStoppedException("partition " + tp + ": offsets " + storedOffset + " to " + (logStart - 1)
                + " were deleted from Kafka (retention or deleteRecords) before they were projected; the projector stops "
                + "rather than skip them. Kafka is the source of truth: restore those events to the topic (from a "
                + "backup or mirror) or restore the database from a backup taken before the deletion, and set the "
                + "events topic's retention.ms and retention.bytes to -1 (docs/operations in docs/architecture.md, "
                + "\"Events deleted before projection\")");
    }
}
