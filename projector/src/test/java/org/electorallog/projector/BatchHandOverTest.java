package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/**
 * Decision 84: while a batch is written, the stream thread decodes on. A batch that has waited its
 * longest during a write is handed over when the write ends; the stream thread does not wait for the
 * write. Shown by holding a write on a table lock: an event the stream thread dead-letters reaches the
 * dead-letter topic (committed by Kafka Streams) while the write is still held, and every good event
 * is projected once when the lock goes. Before decision 84 the wait's punctuation blocked the stream
 * thread on the held write, and the dead letter came only after the lock.
 */
class BatchHandOverTest {
    @Test
    void theStreamThreadDecodesOnWhileABatchWriteIsHeld() throws Exception {
        ProjectorHarness h = new ProjectorHarness("handover", 1);
        String url = h.createDatabase("handover_" + System.nanoTime());
        DatabaseLogin a = h.stack.database();
        ProjectorSettings settings = h.settings.withDatabase(a.atUrl(url));
        StatementCodec codec = StatementCodec.embedded();
        String board = "handover-board";
        try (Projector p = Projector.start(settings);
                KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
                        ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()),
                        new StringSerializer(),
                        new ByteArraySerializer());
                Connection lock = DriverManager.getConnection(url, a.user(), a.password())) {
            long first = send(raw, h, codec, board, "first");
            h.awaitProjected(url, java.util.Map.of(0, first + 1), Duration.ofMinutes(1));

            // hold the next write: its COPY into records waits for this lock
            lock.setAutoCommit(false);
            lock.createStatement().execute("LOCK TABLE records IN EXCLUSIVE MODE");
            long held = send(raw, h, codec, board, "held");
            awaitWriteWaitingForTheLock(lock);

            // the stream thread is free: it dead-letters a bad event, and Kafka Streams commits it
            raw.send(new ProducerRecord<>(h.topic, board, new byte[] {0, 0, 0, 0, 1, (byte) 0xff}))
                    .get();
            long after = send(raw, h, codec, board, "after");
            assertEquals("UNDECODABLE", awaitDeadLetterReason(h, Duration.ofSeconds(60)));
            assertEquals(
                    first + 1,
                    projectedOffset(lock, h.topic),
                    "the held write has not committed while the dead letter went out");
            assertEquals(1L, p.metrics().deadLetters());

            lock.rollback(); // the lock goes; the held batch commits, then the rest
            h.awaitProjected(url, java.util.Map.of(0, after + 1), Duration.ofMinutes(1));
            try (ResultSet rs = lock.createStatement()
                    .executeQuery("SELECT string_agg(delivery_id, ',' ORDER BY id) FROM records")) {
                assertTrue(rs.next());
                assertEquals("first,held,after", rs.getString(1), "each good event once, in order");
            }
            assertEquals(held + 2, after, "the bad event sat between them");
        }
    }

    private static long send(
            KafkaProducer<String, byte[]> raw, ProjectorHarness h, StatementCodec codec, String board, String id)
            throws Exception {
        byte[] value = codec.encode(Envelope.newBuilder()
                .setStatement(ProjectorHarness.statement(board, id, 1))
                .build());
        return raw.send(new ProducerRecord<>(h.topic, board, value)).get().offset();
    }

    /** Waits until a session of this database waits for a lock on the records table (the held write). */
    private static void awaitWriteWaitingForTheLock(Connection lock) throws Exception {
        Poll.until(Duration.ofSeconds(60), "a write waiting for the lock on records", () -> {
            try (ResultSet rs = lock.createStatement()
                    .executeQuery("SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'records'::regclass"
                            + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")) {
                return rs.next() && rs.getLong(1) > 0;
            }
        });
    }

    private static long projectedOffset(Connection c, String topic) throws Exception {
        try (ResultSet rs = c.createStatement()
                .executeQuery("SELECT next_offset FROM partition_offsets WHERE topic = '" + topic + "'")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** The reason of the first dead letter committed to the test's dead-letter topic. */
    private static String awaitDeadLetterReason(ProjectorHarness h, Duration timeout) {
        Properties p = new Properties();
        p.put("bootstrap.servers", h.stack.kafkaBootstrap());
        p.put("isolation.level", "read_committed");
        try (KafkaConsumer<String, byte[]> c =
                new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(h.deadLetters, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                    return new String(r.headers().lastHeader("dlq.reason").value(), StandardCharsets.UTF_8);
                }
            }
        }
        throw new AssertionError("no dead letter committed within " + timeout + " while the write was held");
    }
}
