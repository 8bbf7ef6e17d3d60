package org.electorallog.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.electorallog.core.SigningKey;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.testkit.TopicReader;
import org.junit.jupiter.api.Test;

/** The producer against the real broker: every kind round-trips, signed; bad statements are refused before sending. */
class ElectoralLogProducerTest {
    final Stack stack = SharedStack.get();

    @Test
    void everyStatementKindRoundTripsSigned() throws Exception {
        String topic = "producer-kinds";
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 2, (short) 1);
        SigningKey sender = SigningKey.generate();
        SigningKey system = SigningKey.generate();
        List<Statement> sent = new java.util.ArrayList<>(ElectionStatements.everyKind("kinds-board"));
        // UNKNOWN, the enum's default, is never logged (issue 41): refused before it is sent
        Statement unknown = sent.remove(0);
        assertEquals(org.electorallog.schemas.avro.StatementKind.UNKNOWN, unknown.getKind());
        List<String> leaves = new java.util.ArrayList<>();
        try (ElectoralLogProducer p = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                .topic(topic)
                .senderKey(sender)
                .systemKey(system)
                .build()) {
            StatementRejectedException refused = assertThrows(
                    StatementRejectedException.class,
                    () -> p.publish(Statement.newBuilder(unknown)
                            .setSenderPublicKey(ByteBuffer.allocate(0))
                            .build()));
            assertTrue(refused.getMessage().contains("UNKNOWN is the enum's default"), refused.getMessage());
            for (Statement s : sent) {
                PublishResult r = p.publish(Statement.newBuilder(s)
                                .setSenderPublicKey(ByteBuffer.allocate(0))
                                .build())
                        .get();
                assertEquals("kinds-board", r.board());
                assertEquals(s.getDeliveryId(), r.deliveryId());
                leaves.add(r.leafHashBase64());
            }
            assertEquals(sent.size(), p.metrics().get("acknowledged"));
            assertEquals(0L, p.metrics().get("in_flight"));
        }
        List<ConsumerRecord<String, byte[]>> records = TopicReader.readAll(stack.kafkaBootstrap(), topic);
        assertEquals(sent.size(), records.size());
        StatementCodec codec = StatementCodec.embedded();
        for (int i = 0; i < sent.size(); i++) {
            ConsumerRecord<String, byte[]> r = records.get(i);
            assertEquals("kinds-board", r.key());
            Envelope e = codec.decodeSpecific(r.value());
            Statement expected = Statement.newBuilder(sent.get(i))
                    .setSenderPublicKey(ByteBuffer.wrap(sender.publicKey()))
                    .build();
            assertEquals(expected, e.getStatement(), "kind " + expected.getKind());
            byte[] canonical = CanonicalStatement.encode(e.getStatement());
            assertTrue(SigningKey.verify(sender.publicKey(), canonical, array(e.getSenderSignature())));
            assertTrue(SigningKey.verify(system.publicKey(), canonical, array(e.getSystemSignature())));
            assertEquals(
                    ByteBuffer.wrap(canonical),
                    ByteBuffer.wrap(codec.decode(r.value()).entry().canonical()));
            // the receipt is the leaf the log's tree commits to (RFC 6962 section 2.1)
            assertEquals(
                    java.util.Base64.getEncoder().encodeToString(org.electorallog.core.Hashes.leafHash(canonical)),
                    leaves.get(i));
        }
    }

    @Test
    void aFailFastProducersFirstSendSucceeds() throws Exception {
        String topic = "producer-fail-fast-" + System.nanoTime();
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 1, (short) 1);
        try (ElectoralLogProducer p = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                .topic(topic)
                .failFast()
                .build()) {
            PublishResult r = p.publish(
                            ElectionStatements.everyKind("fail-fast-board").get(1))
                    .get();
            assertEquals(0L, r.offset(), "the very first send is acknowledged, not failed for want of metadata");
        }
    }

    @Test
    void withoutKafkaAPublishFailsWithinTheBoundedWait() throws Exception {
        // nothing listens on port 9 (discard): metadata never comes
        try (ElectoralLogProducer p = ElectoralLogProducer.builder("127.0.0.1:9")
                .topic("producer-unreachable")
                .blockWhenFull(java.time.Duration.ofMillis(500))
                .build()) {
            long t0 = System.nanoTime();
            CompletableFuture<PublishResult> f =
                    p.publish(ElectionStatements.everyKind("unreachable-board").get(1));
            long blockedMillis = (System.nanoTime() - t0) / 1_000_000;
            java.util.concurrent.ExecutionException e =
                    assertThrows(java.util.concurrent.ExecutionException.class, f::get);
            assertTrue(e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException, e.toString());
            assertTrue(blockedMillis < 5_000, "publish returned after " + blockedMillis + " ms, not 60 s");
        }
        assertEquals(2_000L, ElectoralLogProducer.DEFAULT_MAX_WAIT.toMillis());
        IllegalStateException none = assertThrows(
                IllegalStateException.class,
                () -> ElectoralLogProducer.builder("127.0.0.1:9")
                        .failFast()
                        .buildWithin(java.time.Duration.ofMillis(300)));
        assertTrue(none.getMessage().contains("no metadata"), none.getMessage());
    }

    static byte[] array(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void badStatementsAreRefusedNamingTheField() {
        SigningKey sender = SigningKey.generate();
        try (ElectoralLogProducer p = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                        .topic("producer-refused")
                        .build();
                ElectoralLogProducer signing = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                        .topic("producer-refused")
                        .senderKey(sender)
                        .build()) {
            Statement good = ElectionStatements.everyKind("refused-board").get(1);
            assertEquals(
                    "board",
                    field(p, Statement.newBuilder(good).setBoard("Not A Board").build()));
            assertEquals(
                    "sender_name",
                    field(p, Statement.newBuilder(good).setSenderName(" ").build()));
            assertEquals(
                    "sender_public_key",
                    field(
                            p,
                            Statement.newBuilder(good)
                                    .setSenderPublicKey(ByteBuffer.wrap(new byte[5]))
                                    .build()));
            assertEquals(
                    "statement_timestamp",
                    field(p, Statement.newBuilder(good).setStatementTimestamp(0).build()));
            assertEquals(
                    "statement",
                    field(
                            p,
                            Statement.newBuilder(good)
                                    .setArtifact(ByteBuffer.wrap(new byte[70_000]))
                                    .build()));
            assertEquals(
                    "delivery_id",
                    field(
                            p,
                            Statement.newBuilder(good)
                                    .setDeliveryId("x".repeat(129))
                                    .build()));
            assertEquals(
                    "sender_public_key",
                    field(signing, Statement.newBuilder(good).build()));
            Envelope forged = Envelope.newBuilder()
                    .setStatement(Statement.newBuilder(good).build())
                    .setSenderSignature(ByteBuffer.wrap(new byte[64]))
                    .build();
            StatementRejectedException e = assertThrows(StatementRejectedException.class, () -> p.publish(forged));
            assertEquals("sender_signature", e.field());
            assertEquals(0L, p.metrics().get("sent"), "nothing refused was sent");
        }
    }

    static String field(ElectoralLogProducer p, Statement s) {
        return assertThrows(StatementRejectedException.class, () -> p.publish(s))
                .field();
    }

    @Test
    void missingDeliveryIdsGetAUuidV7() throws Exception {
        String topic = "producer-uuid";
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 1, (short) 1);
        try (ElectoralLogProducer p = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                .topic(topic)
                .build()) {
            Statement s = Statement.newBuilder(
                            ElectionStatements.everyKind("uuid-board").get(2))
                    .setDeliveryId("")
                    .build();
            CompletableFuture<PublishResult> f = p.publish(s);
            String id = f.get().deliveryId();
            assertTrue(id.matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"), id);
        }
    }
}
