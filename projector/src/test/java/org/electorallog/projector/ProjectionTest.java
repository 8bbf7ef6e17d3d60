package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.core.Hashes;
import org.electorallog.core.TileTree;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.WireFormat;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.IndexedFields;
import org.electorallog.store.RecordStatements;
import org.junit.jupiter.api.Test;

/** Dedup by delivery ID (invariant 3) and dead letters (invariant 6) on the real broker and PostgreSQL. */
class ProjectionTest {

    /**
     * Decisions 75 and 81: a projector that warms up at start projects as one that does not, and the
     * warm-up leaves nothing behind: no board, no record, no event on the events or dead-letter topic.
     * Events already on the topic are read for the warm-up (its recent events) and still projected
     * once each, from the offset PostgreSQL holds.
     */
    @Test
    void aProjectorWarmedUpAtStartProjectsAndItsWarmUpLeavesNoTrace() throws Exception {
        ProjectorHarness h = new ProjectorHarness("warm-up", 1);
        // a database of its own, so that its counts are this test's alone
        String url = h.createDatabase("warm_up_" + System.nanoTime());
        org.electorallog.config.DatabaseLogin db = h.stack.database();
        String board = "warmed-board";
        long offset = -1;
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            for (int i = 0; i < 3; i++) { // on the topic before the start: the warm-up reads them
                producer.publish(ProjectorHarness.statement(board, "before-" + i, 1000 + i));
            }
            producer.flush();
            try (Projector p = Projector.start(
                    h.settings.withDatabase(db.atUrl(url)).withWarmUp(ProjectorWarmUp.BATCH * 2L + 1))) {
                for (int i = 0; i < 3; i++) {
                    offset = producer.publish(ProjectorHarness.statement(board, "w-" + i, 1000 + i))
                            .get()
                            .offset();
                }
                producer.flush();
                h.awaitProjected(url, h.endOffsets(), java.time.Duration.ofMinutes(2));
            }
        }
        assertEquals(5, offset, "six events on the topic");
        assertEquals(Map.of(0, 6L), h.endOffsets());
        assertEquals(List.of(), DeadLetters.read(h));
        try (Connection c = java.sql.DriverManager.getConnection(url, db.user(), db.password());
                PreparedStatement ps = c.prepareStatement("SELECT (SELECT count(*) FROM boards WHERE board_id < 0 "
                        + "OR name LIKE '%warm-up%'), (SELECT count(*) FROM records WHERE board_id < 0), "
                        + "(SELECT count(*) FROM records)");
                ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
            assertEquals(0, rs.getLong(1), "the warm-up's scratch board reached PostgreSQL");
            assertEquals(0, rs.getLong(2), "the warm-up's records reached PostgreSQL");
            assertEquals(6, rs.getLong(3), "each event projected once");
        }
    }

    /**
     * Checkpoints on an interval: a batch written before its board's interval has passed is not
     * signed in its own transaction; an idle projector, with nothing more to write, still signs it
     * once the interval passes (its batch writer signs when the stream thread hands it a signing
     * step). The projector stays open while it is awaited: a closing task signs everything anyway.
     */
    @Test
    void anIdleProjectorSignsTheLastBatchOnceItsIntervalHasPassed() throws Exception {
        ProjectorHarness h = new ProjectorHarness("idle-sign", 1);
        String board = "idle-sign-board";
        try (Projector p = Projector.start(h.settings.withCheckpointEvery(java.time.Duration.ofSeconds(3)));
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            long first = producer.publish(ProjectorHarness.statement(board, "s-0", 1000))
                    .get()
                    .offset();
            h.awaitOffset(0, first + 1); // the board's first batch: signed in its own transaction
            long last = -1;
            for (int i = 1; i <= 5; i++) {
                last = producer.publish(ProjectorHarness.statement(board, "s-" + i, 1000 + i))
                        .get()
                        .offset();
            }
            h.awaitOffset(0, last + 1);
            assertEquals(6, h.size(board));
            org.electorallog.testkit.Poll.until(
                    java.time.Duration.ofSeconds(60),
                    "a checkpoint of the whole board while the projector is idle",
                    () -> latestCheckpointSize(h, board),
                    size -> size == 6);
        }
    }

    private static long latestCheckpointSize(ProjectorHarness h, String board) throws SQLException {
        try (Connection c = h.connect();
                PreparedStatement ps = c.prepareStatement("SELECT coalesce(max(k.size), 0) FROM checkpoints k "
                        + "JOIN boards b USING (board_id) WHERE b.name = ?")) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                return rs.getLong(1);
            }
        }
    }

    @Test
    void repeatedDeliveryIdsAreKeptOnceWithinBatchesAcrossBatchesAndAcrossRestarts() throws Exception {
        ProjectorHarness h = new ProjectorHarness("dedup", 1);
        String board = "dedup-board";
        List<Statement> kept = new ArrayList<>();
        long offset;
        try (Projector p = Projector.start(h.settings);
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            // within one batch: d-0 twice back to back (a retry: the same statement), and d-2 again with
            // other content (a later timestamp), which is no retry: dead-lettered DELIVERY_ID_REUSED (issue 61)
            for (int i = 0; i < 10; i++) {
                Statement s = ProjectorHarness.statement(board, "d-" + i, 1000 + i);
                kept.add(s);
                producer.publish(s);
                if (i == 0) {
                    producer.publish(ProjectorHarness.statement(board, "d-0", 1000));
                }
                if (i == 2) {
                    producer.publish(ProjectorHarness.statement(board, "d-2", 9999));
                }
            }
            offset = producer.publish(ProjectorHarness.statement(board, "d-10", 1010))
                    .get()
                    .offset();
            kept.add(ProjectorHarness.statement(board, "d-10", 1010));
            h.awaitOffset(0, offset + 1);
            // across batches: d-3 and d-7 again after they were written
            producer.publish(ProjectorHarness.statement(board, "d-3", 1003)).get();
            offset = producer.publish(ProjectorHarness.statement(board, "d-7", 1007))
                    .get()
                    .offset();
            h.awaitOffset(0, offset + 1);
        }
        // across a restart of the projector
        try (Projector p = Projector.start(h.settings);
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            producer.publish(ProjectorHarness.statement(board, "d-5", 1005)).get();
            // and a stored one with other content after the restart
            producer.publish(ProjectorHarness.statement(board, "d-6", 6666)).get();
            Statement fresh = ProjectorHarness.statement(board, "d-11", 1011);
            kept.add(fresh);
            offset = producer.publish(fresh).get().offset();
            h.awaitOffset(0, offset + 1);
        }
        assertEquals(kept.size(), h.size(board));
        TileTree expected = TileTree.empty();
        try (Connection c = h.connect();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT r.id, r.delivery_id, r.stored_statement, r.election_id, r.area_id, r.ballot_id FROM records r "
                                + "JOIN boards b USING (board_id) WHERE b.name = ? ORDER BY r.id")) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                int i = 0;
                while (rs.next()) {
                    assertEquals(i, rs.getLong(1));
                    assertEquals(kept.get(i).getDeliveryId(), rs.getString(2));
                    byte[] canonical = CanonicalStatement.encode(kept.get(i));
                    byte[] stored = rs.getBytes(3);
                    assertTrue(stored.length < canonical.length, "stored in the smaller form (store V22)");
                    assertEquals(
                            ByteBuffer.wrap(canonical),
                            ByteBuffer.wrap(RecordStatements.canonical(
                                    stored,
                                    board,
                                    rs.getString(2),
                                    new IndexedFields(null, null, rs.getString(4), rs.getString(5), rs.getString(6)))),
                            "first copy kept for ID " + i);
                    expected.appendLeafHash(Hashes.leafHash(canonical));
                    i++;
                }
                assertEquals(kept.size(), i);
            }
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT s.duplicates_dropped, s.root FROM board_state s JOIN boards b USING (board_id) WHERE b.name = ?")) {
                st.setString(1, board);
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        throw new AssertionError("the query returned no row");
                    }
                    assertEquals(4, rs.getLong(1), "every dropped copy is counted");
                    assertEquals(ByteBuffer.wrap(expected.root()), ByteBuffer.wrap(rs.getBytes(2)));
                }
            }
        }
        assertEquals(
                java.util.Map.of("d-2", "DELIVERY_ID_REUSED", "d-6", "DELIVERY_ID_REUSED"),
                DeadLetters.reasons(h),
                "the copies with other content, and only they, dead-lettered");
    }

    @Test
    void badEventsAreDeadLetteredWithTheirReasonAndTheBoardGoesOn() throws Exception {
        ProjectorHarness h = new ProjectorHarness("dlq", 1);
        String board = "dlq-board";
        StatementCodec codec = StatementCodec.embedded();
        Statement big = ProjectorHarness.statement(board, "big", 1);
        big.setArtifact(ByteBuffer.wrap(new byte[70_000]));
        Statement wrongKey = ProjectorHarness.statement("other-board", "wk", 1);
        Map<String, byte[]> bad = new HashMap<>();
        bad.put("UNDECODABLE", new byte[] {0, 0, 0, 0, 1, (byte) 0xff, (byte) 0xff, (byte) 0xff});
        bad.put("NO_SCHEMA", "{\"board\":\"dlq-board\"}".getBytes(StandardCharsets.UTF_8));
        bad.put("UNKNOWN_SCHEMA", WireFormat.frame(4242, new byte[] {2, 3}));
        bad.put(
                "OVERSIZED",
                codec.encode(Envelope.newBuilder().setStatement(big).build()));
        bad.put(
                "INVALID",
                codec.encode(Envelope.newBuilder().setStatement(wrongKey).build()));
        long last;
        try (Projector p = Projector.start(h.settings);
                KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
                        ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(
                            h.topic,
                            board,
                            codec.encode(Envelope.newBuilder()
                                    .setStatement(ProjectorHarness.statement(board, "ok-1", 1))
                                    .build())))
                    .get();
            for (byte[] value : bad.values()) {
                raw.send(new ProducerRecord<>(h.topic, board, value)).get();
            }
            RecordMetadata md = raw.send(new ProducerRecord<>(
                            h.topic,
                            board,
                            codec.encode(Envelope.newBuilder()
                                    .setStatement(ProjectorHarness.statement(board, "ok-2", 2))
                                    .build())))
                    .get();
            last = md.offset();
            h.awaitOffset(0, last + 1);
            assertEquals(5, p.metrics().deadLetters());
        }
        assertEquals(2, h.size(board), "the good statements around the bad ones are projected");

        Properties cp = new Properties();
        cp.put("bootstrap.servers", h.stack.kafkaBootstrap());
        cp.put("isolation.level", "read_committed");
        Map<String, String> reasons = new HashMap<>();
        try (KafkaConsumer<String, byte[]> c =
                new KafkaConsumer<>(cp, new StringDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(h.deadLetters, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (reasons.size() < 5 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(500))) {
                    String reason =
                            new String(r.headers().lastHeader("dlq.reason").value(), StandardCharsets.UTF_8);
                    assertEquals(
                            ByteBuffer.wrap(bad.get(reason)),
                            ByteBuffer.wrap(r.value()),
                            "original bytes kept for " + reason);
                    assertEquals(
                            h.topic,
                            new String(
                                    r.headers().lastHeader("dlq.source.topic").value(), StandardCharsets.UTF_8));
                    reasons.put(
                            reason,
                            new String(r.headers().lastHeader("dlq.message").value(), StandardCharsets.UTF_8));
                }
            }
        }
        assertEquals(bad.keySet(), reasons.keySet(), "one dead letter per bad event, with its reason: " + reasons);
    }
}
