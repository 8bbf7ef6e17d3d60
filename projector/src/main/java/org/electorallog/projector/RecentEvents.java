package org.electorallog.projector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The last events of the events topic, read once at start for the projector's warm-up (decision 81):
 * the statements a projector meets right after a restart are most like the ones just before it, so
 * warming up on them compiles the branches and types real traffic takes, which made-up statements
 * alone miss (the JIT then throws the compiled code away at the first real event and compiles it
 * again while the events wait).
 *
 * <p>A plain consumer with no group (nothing is committed, no partition is taken from anyone) reads
 * committed events only, as the projector does, up to the end offsets it saw when it began. Nothing
 * read here is projected or kept: the warm-up decodes it in memory and writes it only to a scratch
 * board in transactions it rolls back.
 */
final class RecentEvents {
    private RecentEvents() {}

    /**
     * The values of the last events of {@code topic}, at most {@code max} in all, split evenly over its
     * partitions; fewer when the topic holds fewer or {@code timeout} passes first (what was read by
     * then is returned). An empty topic gives an empty list.
     */
    static List<byte[]> read(Properties kafkaClient, String topic, int max, Duration timeout) {
        if (max <= 0) {
            return List.of();
        }
        Properties p = new Properties();
        p.putAll(kafkaClient);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Math.min(max, 5_000));
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(topic, timeout)) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            if (partitions.isEmpty()) {
                return List.of();
            }
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
            Map<TopicPartition, Long> begins = consumer.beginningOffsets(partitions, timeout);
            long share = Math.max(1, max / partitions.size());
            Map<TopicPartition, Long> remaining = new HashMap<>();
            consumer.assign(partitions);
            for (TopicPartition tp : partitions) {
                long from = Math.max(begins.get(tp), ends.get(tp) - share);
                consumer.seek(tp, from);
                if (from < ends.get(tp)) {
                    remaining.put(tp, ends.get(tp));
                }
            }
            consumer.pause(
                    partitions.stream().filter(tp -> !remaining.containsKey(tp)).toList());
            List<byte[]> out = new ArrayList<>();
            while (!remaining.isEmpty() && out.size() < max && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    Long end = remaining.get(tp);
                    if (end == null || r.offset() >= end) {
                        continue; // past the end seen at the start: not the events before this start
                    }
                    if (r.value() != null && out.size() < max) {
                        out.add(r.value());
                    }
                    if (r.offset() + 1 >= end) {
                        remaining.remove(tp);
                        consumer.pause(List.of(tp));
                    }
                }
                // a partition whose last offsets are transaction markers or aborted events never
                // delivers its end offset: its position tells that it got there
                for (TopicPartition tp : List.copyOf(remaining.keySet())) {
                    if (consumer.position(tp) >= remaining.get(tp)) {
                        remaining.remove(tp);
                        consumer.pause(List.of(tp));
                    }
                }
            }
            return out;
        }
    }
}
