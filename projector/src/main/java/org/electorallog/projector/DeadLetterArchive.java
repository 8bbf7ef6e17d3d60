package org.electorallog.projector;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The dead-letter topic as an operator reads it (docs/operations.md "Dead letters"): every dead
 * letter with its reason and source, filtered; and re-publishing one, which copies the original
 * event from the events topic (its exact bytes, key and headers, never the dead letter's possibly
 * cut copy) back onto the events topic. A second re-publish of an event the projector accepted is
 * dropped as a repeated delivery ID, so re-publishing is idempotent.
 */
public final class DeadLetterArchive {
    /** The header a re-published event carries: where its original was. */
    public static final String REPUBLISHED_FROM = "electoral-log.republished-from";

    private final Properties kafka;
    private final String deadLetterTopic;

    /** {@code kafka}: client properties (bootstrap and security) of a login that reads both topics and writes the events topic. */
    public DeadLetterArchive(Properties kafka, String deadLetterTopic) {
        this.kafka = kafka;
        this.deadLetterTopic = deadLetterTopic;
    }

    /** One dead letter: where it is in the dead-letter topic, why, and where its original is. */
    public record Entry(
            int partition,
            long offset,
            Instant refused,
            String board,
            String reason,
            String message,
            String sourceTopic,
            int sourcePartition,
            long sourceOffset,
            boolean truncated) {
        /** {@code <partition>@<offset>} in the dead-letter topic: how the CLI names it. */
        public String id() {
            return partition + "@" + offset;
        }
    }

    /** Which dead letters to show; null fields match all. */
    public record Filter(String board, String reason, Instant since, Instant until) {
        public static final Filter ALL = new Filter(null, null, null, null);

        boolean matches(Entry e) {
            return (board == null || board.equals(e.board()))
                    && (reason == null || reason.equalsIgnoreCase(e.reason()))
                    && (since == null || !e.refused().isBefore(since))
                    && (until == null || e.refused().isBefore(until));
        }
    }

    /** Every dead letter matching the filter, in partition and offset order (reads the topic to its end). */
    public List<Entry> list(Filter filter) {
        List<Entry> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = consumer()) {
            List<TopicPartition> tps = new ArrayList<>();
            List<PartitionInfo> infos = c.partitionsFor(deadLetterTopic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalArgumentException("no dead-letter topic '" + deadLetterTopic + "'");
            }
            infos.forEach(p -> tps.add(new TopicPartition(deadLetterTopic, p.partition())));
            tps.sort(Comparator.comparingInt(TopicPartition::partition));
            c.assign(tps);
            c.seekToBeginning(tps);
            var end = c.endOffsets(tps, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading the dead-letter topic took more than 5 minutes");
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    Entry e = entry(r);
                    if (filter.matches(e)) {
                        out.add(e);
                    }
                }
            }
        }
        out.sort(Comparator.comparingInt(Entry::partition).thenComparingLong(Entry::offset));
        return out;
    }

    /** The dead letter at {@code partition@offset}. */
    public Entry find(String id) {
        int at = id.indexOf('@');
        int partition;
        long offset;
        try {
            partition = Integer.parseInt(id.substring(0, at));
            offset = Long.parseLong(id.substring(at + 1));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "a dead letter is named <partition>@<offset> (as list shows), not '" + id + "'");
        }
        return entry(read(deadLetterTopic, partition, offset, "dead letter " + id));
    }

    /**
     * Re-publishes the original of a dead letter onto its source topic (partitioned by its key, as
     * producers do); returns where it went. The original must still be in the source topic.
     */
    public String republish(Entry e) {
        ConsumerRecord<byte[], byte[]> original =
                read(e.sourceTopic(), e.sourcePartition(), e.sourceOffset(), "the original of dead letter " + e.id());
        RecordHeaders headers = new RecordHeaders();
        for (Header h : original.headers()) {
            if (!h.key().equals(REPUBLISHED_FROM)) {
                headers.add(h);
            }
        }
        headers.add(
                REPUBLISHED_FROM,
                (e.sourceTopic() + "-" + e.sourcePartition() + "@" + e.sourceOffset())
                        .getBytes(StandardCharsets.UTF_8));
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            RecordMetadata md = producer.send(new ProducerRecord<>(
                            e.sourceTopic(), null, null, original.key(), original.value(), headers))
                    .get(60, TimeUnit.SECONDS);
            return md.topic() + "-" + md.partition() + "@" + md.offset();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while re-publishing " + e.id(), ex);
        } catch (ExecutionException | TimeoutException ex) {
            throw new IllegalStateException("re-publishing " + e.id() + " failed: " + ex.getMessage(), ex);
        }
    }

    private ConsumerRecord<byte[], byte[]> read(String topic, int partition, long offset, String what) {
        TopicPartition tp = new TopicPartition(topic, partition);
        try (KafkaConsumer<byte[], byte[]> c = consumer()) {
            c.assign(List.of(tp));
            long end = c.endOffsets(List.of(tp), Duration.ofSeconds(30)).get(tp);
            if (offset >= end) {
                throw new IllegalArgumentException(
                        what + ": " + topic + "-" + partition + " ends before offset " + offset);
            }
            c.seek(tp, offset);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline && c.position(tp) <= offset) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    if (r.offset() == offset) {
                        return r;
                    }
                }
            }
        } catch (OffsetOutOfRangeException ex) {
            throw new IllegalArgumentException(what + ": offset " + offset + " of " + tp + " is gone (retention)");
        }
        throw new IllegalArgumentException(what + ": no record at " + topic + "-" + partition + "@" + offset
                + " (an aborted transaction's, or a control record)");
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static Entry entry(ConsumerRecord<byte[], byte[]> r) {
        return new Entry(
                r.partition(),
                r.offset(),
                Instant.ofEpochMilli(r.timestamp()),
                r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8),
                header(r, "dlq.reason"),
                header(r, "dlq.message"),
                header(r, "dlq.source.topic"),
                Integer.parseInt(orElse(header(r, "dlq.source.partition"), "-1")),
                Long.parseLong(orElse(header(r, "dlq.source.offset"), "-1")),
                "true".equals(header(r, "dlq.truncated")));
    }

    private static String orElse(String v, String other) {
        return v == null ? other : v;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String key) {
        Header h = r.headers().lastHeader(key);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
