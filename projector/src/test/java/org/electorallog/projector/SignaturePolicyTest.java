package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.core.SigningKey;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/** Boards whose policy requires signatures dead-letter unsigned and badly signed statements (invariant 6). */
class SignaturePolicyTest {

    @Test
    void unsignedAndBadlySignedStatementsAreDeadLetteredOnSignedBoards() throws Exception {
        SigningKey sender = SigningKey.generate();
        SigningKey system = SigningKey.generate();
        SigningKey stranger = SigningKey.generate();
        ProjectorHarness h = new ProjectorHarness("signed", 1);
        ProjectorSettings settings = h.settings.withSignatures(new SignaturePolicy(
                SignaturePolicy.Mode.SENDER_AND_SYSTEM, Pattern.compile("signed-.*"), List.of(system.publicKey())));
        StatementCodec codec = StatementCodec.embedded();
        try (Projector p = Projector.start(settings);
                KafkaProducer<String, byte[]> raw = rawProducer(h)) {
            send(raw, h.topic, codec, envelope("signed-board", "unsigned", sender, null, null));
            send(raw, h.topic, codec, envelope("signed-board", "sender-only", sender, sender, null));
            send(raw, h.topic, codec, envelope("signed-board", "wrong-sender", sender, stranger, system));
            send(raw, h.topic, codec, envelope("signed-board", "wrong-system", sender, sender, stranger));
            send(raw, h.topic, codec, envelope("signed-board", "good", sender, sender, system));
            send(raw, h.topic, codec, envelope("open-board", "unsigned-open", sender, null, null));
            h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(4, p.metrics().deadLetters());
            assertEquals(2L, p.metrics().snapshot().get("dead_letters_unsigned"));
            assertEquals(2L, p.metrics().snapshot().get("dead_letters_bad_signature"));
        }
        assertEquals(1, h.size("signed-board"), "only the statement signed by its sender and the system is projected");
        assertEquals(1, h.size("open-board"), "boards outside the policy take unsigned statements");
        Map<String, String> reasons = new java.util.HashMap<>();
        for (ConsumerRecord<String, byte[]> r : DeadLetters.read(h)) {
            reasons.put(
                    codec.decode(r.value()).deliveryId(),
                    new String(r.headers().lastHeader("dlq.reason").value(), StandardCharsets.UTF_8));
        }
        assertEquals(
                Map.of(
                        "unsigned",
                        "UNSIGNED",
                        "sender-only",
                        "UNSIGNED",
                        "wrong-sender",
                        "BAD_SIGNATURE",
                        "wrong-system",
                        "BAD_SIGNATURE"),
                reasons);
    }

    /**
     * Signatures are verified a batch at once on several threads: in full batches of signed statements,
     * exactly the badly signed ones are dead-lettered (once each) and the others projected in their order.
     */
    @Test
    void fullBatchesVerifiedInParallelRefuseExactlyTheBadSignatures() throws Exception {
        SigningKey sender = SigningKey.generate();
        SigningKey stranger = SigningKey.generate();
        ProjectorHarness h = new ProjectorHarness("parallel", 1);
        ProjectorSettings settings = senderSigned(h);
        StatementCodec codec = StatementCodec.embedded();
        String board = "signed-parallel-" + System.nanoTime();
        List<String> good = new java.util.ArrayList<>();
        java.util.Set<String> bad = new java.util.HashSet<>();
        // published before the projector starts, so that it reads full batches (500 in the harness)
        try (KafkaProducer<String, byte[]> raw = rawProducer(h)) {
            for (int i = 0; i < 1200; i++) {
                String id = "p-" + i;
                boolean wrong = i % 97 == 13;
                (wrong ? bad : good).add(id);
                raw.send(new ProducerRecord<>(
                        h.topic, board, codec.encode(envelope(board, id, sender, wrong ? stranger : sender, null))));
            }
            raw.flush();
        }
        try (Projector p = Projector.start(settings)) {
            h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            assertEquals((long) bad.size(), p.metrics().snapshot().get("dead_letters_bad_signature"));
            // full batches are written while verified (decision 77): those with a bad one are rolled
            // back and written again
            long rewritten = p.metrics().snapshot().get("batches_rewritten");
            assertTrue(rewritten >= 1 && rewritten <= bad.size(), "batches rewritten: " + rewritten);
        }
        List<String> projected = new java.util.ArrayList<>();
        try (java.sql.Connection c = h.connect();
                java.sql.PreparedStatement ps = c.prepareStatement("SELECT r.delivery_id FROM records r "
                        + "JOIN boards b USING (board_id) WHERE b.name = ? ORDER BY r.id")) {
            ps.setString(1, board);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    projected.add(rs.getString(1));
                }
            }
        }
        assertEquals(good, projected, "the well signed statements, in their order, IDs without gaps");
        List<String> lettered = new java.util.ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : DeadLetters.read(h)) {
            assertEquals(
                    "BAD_SIGNATURE",
                    new String(r.headers().lastHeader("dlq.reason").value(), StandardCharsets.UTF_8));
            lettered.add(codec.decode(r.value()).deliveryId());
        }
        assertEquals(bad, new java.util.HashSet<>(lettered), "each bad one dead-lettered");
        assertEquals(bad.size(), lettered.size(), "and once");
    }

    /**
     * A batch is written while its signatures are verified (decision 77). When one is refused, that
     * write is rolled back and the batch written again without it: the refused event is dead-lettered
     * once, the others projected once in their order, and the batch keeps the checkpoint its first
     * write had signed and lost (an hour's checkpoint interval would otherwise leave the board
     * unprovable for an hour).
     */
    @Test
    void aBatchRewrittenForABadSignatureKeepsItsCheckpoint() throws Exception {
        SigningKey sender = SigningKey.generate();
        SigningKey stranger = SigningKey.generate();
        ProjectorHarness h = new ProjectorHarness("rewrite", 1);
        // one batch of all 200 (published first; the batch is written at its 200th event, long before
        // its wait runs out), a checkpoint an hour
        ProjectorSettings settings =
                senderSigned(h).withBatch(200, Duration.ofSeconds(60)).withCheckpointEvery(Duration.ofHours(1));
        StatementCodec codec = StatementCodec.embedded();
        String board = "signed-rewrite-" + System.nanoTime();
        try (KafkaProducer<String, byte[]> raw = rawProducer(h)) {
            for (int i = 0; i < 200; i++) {
                send(raw, h.topic, codec, envelope(board, "w-" + i, sender, i == 5 ? stranger : sender, null));
            }
        }
        try (Projector p = Projector.start(settings)) {
            h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(1L, p.metrics().snapshot().get("batches_rewritten"), "written, rolled back, written again");
            assertEquals(1L, p.metrics().snapshot().get("batches"), "one batch committed");
            assertEquals(199, h.size(board));
            // before the projector closes (closing signs every board)
            try (java.sql.Connection c = h.connect();
                    java.sql.PreparedStatement ps = c.prepareStatement("SELECT max(k.size) FROM checkpoints k "
                            + "JOIN boards b USING (board_id) WHERE b.name = ?")) {
                ps.setString(1, board);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    assertEquals(true, rs.next());
                    assertEquals(199L, rs.getLong(1), "the rewritten batch's checkpoint");
                }
            }
        }
        assertEquals(List.of("w-5"), deadLettered(h, codec));
    }

    /**
     * Decision 61's crash windows. (1) Kafka committed the group past a badly signed event that
     * PostgreSQL never projected (the process died before its batch was written): the gap is projected
     * and the event dead-lettered then, once. (2) The group is rewound below PostgreSQL's offset (Kafka
     * did not commit after the batch): the redelivered bad event is skipped without a second dead
     * letter, because its dead letter was acknowledged before that batch committed.
     */
    @Test
    void aBadSignatureInAGapIsDeadLetteredOnceAndNotAgainWhenRedelivered() throws Exception {
        SigningKey sender = SigningKey.generate();
        SigningKey stranger = SigningKey.generate();
        ProjectorHarness h = new ProjectorHarness("sig-gap", 1);
        ProjectorSettings settings = senderSigned(h);
        StatementCodec codec = StatementCodec.embedded();
        String board = "signed-gap-" + System.nanoTime();
        try (KafkaProducer<String, byte[]> raw = rawProducer(h)) {
            try (Projector p = Projector.start(settings)) {
                send(raw, h.topic, codec, envelope(board, "g-1", sender, sender, null));
                h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            }
            send(raw, h.topic, codec, envelope(board, "g-2", sender, sender, null));
            send(raw, h.topic, codec, envelope(board, "g-bad", sender, stranger, null));
            send(raw, h.topic, codec, envelope(board, "g-3", sender, sender, null));
        }
        Map<Integer, Long> end = h.endOffsets();
        commitGroupAt(h, settings, end.get(0));
        assertEquals(1, h.projectedOffset(0));
        try (Projector p = Projector.start(settings)) {
            h.awaitProjected(h.stack.database().jdbcUrl(), end, Duration.ofMinutes(1));
        }
        assertEquals(List.of("g-bad"), deadLettered(h, codec), "the gap's bad signature dead-lettered once");
        commitGroupAt(h, settings, 0);
        try (Projector p = Projector.start(settings)) {
            h.awaitProjected(h.stack.database().jdbcUrl(), end, Duration.ofMinutes(1));
            // the redelivered events are all below the stored offset: only the group's position moves
            Poll.until(
                    Duration.ofMinutes(1),
                    "the redelivered events consumed",
                    () -> groupOffset(h, settings),
                    o -> o >= end.get(0));
        }
        assertEquals(List.of("g-bad"), deadLettered(h, codec), "no second dead letter for the redelivered event");
        assertEquals(3, h.size(board), "g-1, g-2 and g-3, each once");
    }

    /** The harness's projector with every statement on a signed-* board checked against its sender's key. */
    private static ProjectorSettings senderSigned(ProjectorHarness h) {
        return h.settings.withSignatures(
                new SignaturePolicy(SignaturePolicy.Mode.SENDER, Pattern.compile("signed-.*"), List.of()));
    }

    /** A producer with the library's Kafka settings that sends encoded (signed) statements as they are. */
    private static KafkaProducer<String, byte[]> rawProducer(ProjectorHarness h) {
        return new KafkaProducer<>(
                ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    private static void commitGroupAt(ProjectorHarness h, ProjectorSettings settings, long offset) throws Exception {
        try (org.apache.kafka.clients.admin.Admin admin =
                org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", h.stack.kafkaBootstrap()))) {
            admin.alterConsumerGroupOffsets(
                            settings.applicationId(),
                            Map.of(
                                    new org.apache.kafka.common.TopicPartition(h.topic, 0),
                                    new org.apache.kafka.clients.consumer.OffsetAndMetadata(offset)))
                    .all()
                    .get();
        }
    }

    private static long groupOffset(ProjectorHarness h, ProjectorSettings settings) throws Exception {
        try (org.apache.kafka.clients.admin.Admin admin =
                org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", h.stack.kafkaBootstrap()))) {
            var om = admin.listConsumerGroupOffsets(settings.applicationId())
                    .partitionsToOffsetAndMetadata()
                    .get()
                    .get(new org.apache.kafka.common.TopicPartition(h.topic, 0));
            return om == null ? -1 : om.offset();
        }
    }

    private static List<String> deadLettered(ProjectorHarness h, StatementCodec codec) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : DeadLetters.read(h)) {
            assertEquals(
                    "BAD_SIGNATURE",
                    new String(r.headers().lastHeader("dlq.reason").value(), StandardCharsets.UTF_8));
            out.add(codec.decode(r.value()).deliveryId());
        }
        return out;
    }

    static Envelope envelope(
            String board, String id, SigningKey sender, SigningKey senderSigner, SigningKey systemSigner) {
        Statement st = Statement.newBuilder(ProjectorHarness.statement(board, id, 1_000))
                .setSenderPublicKey(ByteBuffer.wrap(sender.publicKey()))
                .build();
        byte[] canonical = CanonicalStatement.encode(st);
        return Envelope.newBuilder()
                .setStatement(st)
                .setSenderSignature(senderSigner == null ? null : ByteBuffer.wrap(senderSigner.sign(canonical)))
                .setSystemSignature(systemSigner == null ? null : ByteBuffer.wrap(systemSigner.sign(canonical)))
                .build();
    }

    static void send(KafkaProducer<String, byte[]> raw, String topic, StatementCodec codec, Envelope e)
            throws Exception {
        raw.send(new ProducerRecord<>(topic, e.getStatement().getBoard(), codec.encode(e)))
                .get();
    }
}
