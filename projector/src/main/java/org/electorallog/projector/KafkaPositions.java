package org.electorallog.projector;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * What a take asks Kafka about a partition: where its log starts and how far Kafka Streams
 * committed. One Admin client per projector, shared by its tasks (Admin is thread-safe), so that a
 * take after a dead instance's partitions does not first pay for a new client's connections and
 * metadata (issue 43 item 4: a handover within 10 s).
 */
final class KafkaPositions implements AutoCloseable {
    private static final long WAIT_SECONDS = 30;

    private final ProjectorSettings settings;
    private Admin admin;
    private boolean closed;

    KafkaPositions(ProjectorSettings settings) {
        this.settings = settings;
    }

    /** The first offset the topic still holds in {@code tp}. */
    long logStart(TopicPartition tp) {
        try {
            return admin().listOffsets(Map.of(tp, OffsetSpec.earliest()))
                    .partitionResult(tp)
                    .get(WAIT_SECONDS, TimeUnit.SECONDS)
                    .offset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the log start of " + tp, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the log start offset of " + tp + ": " + e.getMessage(), e);
        }
    }

    /** The offset Kafka Streams committed for {@code tp} (the projector's application ID), -1 when none. */
    long committed(TopicPartition tp) {
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin().listConsumerGroupOffsets(Map.of(
                            settings.applicationId(), new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(tp))))
                    .partitionsToOffsetAndMetadata(settings.applicationId())
                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
            OffsetAndMetadata om = offsets.get(tp);
            return om == null ? -1 : om.offset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the committed offset of " + tp, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the committed offset of " + tp + ": " + e.getMessage(), e);
        }
    }

    private synchronized Admin admin() {
        if (closed) {
            throw new IllegalStateException("the projector is closing");
        }
        if (admin == null) {
            admin = Admin.create(settings.kafkaClient());
        }
        return admin;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (admin != null) {
            admin.close();
        }
    }
}
