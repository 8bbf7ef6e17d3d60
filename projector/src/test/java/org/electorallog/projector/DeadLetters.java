package org.electorallog.projector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a test's whole dead-letter topic (committed records only). */
final class DeadLetters {
    private DeadLetters() {}

    static List<ConsumerRecord<String, byte[]>> read(ProjectorHarness h) {
        Properties p = new Properties();
        p.put("bootstrap.servers", h.stack.kafkaBootstrap());
        p.put("isolation.level", "read_committed");
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c =
                new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(h.deadLetters, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp)).get(tp);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (c.position(tp) < end && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    /** Delivery ID to {@code dlq.reason} of every dead letter of the test's topic. */
    static java.util.Map<String, String> reasons(ProjectorHarness h) throws org.electorallog.schemas.BadEventException {
        org.electorallog.schemas.StatementCodec codec = org.electorallog.schemas.StatementCodec.embedded();
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        for (ConsumerRecord<String, byte[]> r : read(h)) {
            out.put(
                    codec.decode(r.value()).deliveryId(),
                    new String(r.headers().lastHeader("dlq.reason").value(), java.nio.charset.StandardCharsets.UTF_8));
        }
        return out;
    }
}
