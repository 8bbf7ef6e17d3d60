package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.core.SigningKey;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.store.SenderGrant;
import org.electorallog.store.SenderGrants;
import org.junit.jupiter.api.Test;

/**
 * The sender registry through the projector (issue 15, docs/security.md "Writers"): an unregistered
 * key, a kind or board the key may not write, a time before its grant, and a revoked key are
 * dead-lettered with their reasons; what the key wrote before its revocation stays on the board.
 */
class SenderRegistryTest {
    private static final Instant GRANTED = Instant.parse("2020-01-01T00:00:00Z");
    private static final Instant REVOKED = Instant.parse("2021-01-01T00:00:00Z");
    private static final int REFUSED_BOARDS = 20;

    @Test
    void theProjectorWritesOnlyWhatTheRegistryAllows() throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String votes = "reg-votes-" + suffix;
        String other = "reg-other-" + suffix;
        SigningKey voting = SigningKey.generate();
        SigningKey everything = SigningKey.generate();
        SigningKey stranger = SigningKey.generate();
        ProjectorHarness h = new ProjectorHarness("registry", 1);
        try (Connection c = DriverManager.getConnection(
                h.stack.database().jdbcUrl(),
                h.stack.database().user(),
                h.stack.database().password())) {
            SenderGrant g = SenderGrants.add(
                    c,
                    new SenderGrants.Request(
                            voting.publicKey(), "voting", votes, List.of("CAST_VOTE"), GRANTED, null, "test"));
            assertTrue(SenderGrants.revoke(c, g.grantId(), REVOKED, "test", "key rotated")
                    .isPresent());
            assertEquals(
                    Optional.empty(),
                    SenderGrants.revoke(c, g.grantId(), REVOKED, "test", "again"),
                    "a grant is revoked once");
            SenderGrants.add(
                    c,
                    new SenderGrants.Request(
                            everything.publicKey(),
                            "ceremonies",
                            SenderGrant.ANY,
                            List.of(SenderGrant.ANY),
                            GRANTED,
                            null,
                            "test"));
        }
        ProjectorSettings settings = h.settings.withSignatures(
                new SignaturePolicy(SignaturePolicy.Mode.SENDER, Pattern.compile("reg-.*"), List.of(), true));
        StatementCodec codec = StatementCodec.embedded();
        long inGrant = Instant.parse("2020-06-01T00:00:00Z").toEpochMilli();
        long beforeGrant = Instant.parse("2019-06-01T00:00:00Z").toEpochMilli();
        long afterRevocation = Instant.parse("2021-06-01T00:00:00Z").toEpochMilli();
        try (Projector p = Projector.start(settings);
                KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
                        ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            send(raw, h.topic, codec, signed(votes, "vote-in-grant", StatementKind.CAST_VOTE, voting), inGrant);
            send(raw, h.topic, codec, signed(votes, "wrong-kind", StatementKind.TALLY_OPENED, voting), inGrant);
            send(raw, h.topic, codec, signed(other, "wrong-board", StatementKind.CAST_VOTE, voting), inGrant);
            send(raw, h.topic, codec, signed(votes, "before-grant", StatementKind.CAST_VOTE, voting), beforeGrant);
            send(
                    raw,
                    h.topic,
                    codec,
                    signed(votes, "after-revocation", StatementKind.CAST_VOTE, voting),
                    afterRevocation);
            send(raw, h.topic, codec, signed(votes, "unregistered", StatementKind.CAST_VOTE, stranger), inGrant);
            // a refused statement does not take the delivery ID of the good one after it
            send(raw, h.topic, codec, signed(other, "shared-id", StatementKind.TALLY_OPENED, stranger), inGrant);
            send(raw, h.topic, codec, signed(other, "shared-id", StatementKind.TALLY_OPENED, everything), inGrant);
            send(raw, h.topic, codec, signed(votes, "any-kind", StatementKind.KEY_GENERATION, everything), inGrant);
            // issue 41: refused statements on boards that do not exist yet create no board (and take no ID)
            for (int i = 0; i < REFUSED_BOARDS; i++) {
                send(
                        raw,
                        h.topic,
                        codec,
                        signed("reg-none-" + suffix + "-" + i, "x", StatementKind.CAST_VOTE, stranger),
                        inGrant);
            }
            h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(6 + REFUSED_BOARDS, p.metrics().deadLetters());
        }
        try (Connection c = DriverManager.getConnection(
                        h.stack.database().jdbcUrl(),
                        h.stack.database().user(),
                        h.stack.database().password());
                java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs =
                        st.executeQuery("SELECT count(*) FROM boards WHERE name LIKE 'reg-none-" + suffix + "-%'")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getLong(1), "no board is created by statements the registry refuses");
        }
        assertEquals(2, h.size(votes), "the vote written while the grant was valid stays, with the any-kind one");
        assertEquals(1, h.size(other), "the registered sender's statement with the shared delivery ID is written");
        Map<String, String> reasons = new TreeMap<>();
        for (ConsumerRecord<String, byte[]> r : DeadLetters.read(h)) {
            reasons.put(
                    codec.decode(r.value()).deliveryId(),
                    new String(r.headers().lastHeader("dlq.reason").value(), StandardCharsets.UTF_8));
        }
        assertEquals(
                Map.of(
                        "wrong-kind", "SENDER_NOT_PERMITTED",
                        "wrong-board", "SENDER_NOT_PERMITTED",
                        "before-grant", "SENDER_NOT_PERMITTED",
                        "after-revocation", "SENDER_REVOKED",
                        "unregistered", "SENDER_UNREGISTERED",
                        "shared-id", "SENDER_UNREGISTERED",
                        "x", "SENDER_UNREGISTERED"),
                reasons);
    }

    @Test
    void aRevocationAppliesFromItsTimeOn() throws Exception {
        String board = "reg-live-" + Long.toString(System.nanoTime(), 36);
        SigningKey key = SigningKey.generate();
        ProjectorHarness h = new ProjectorHarness("registry-live", 1);
        ProjectorSettings settings = h.settings.withSignatures(
                new SignaturePolicy(SignaturePolicy.Mode.SENDER, Pattern.compile("reg-.*"), List.of(), true));
        StatementCodec codec = StatementCodec.embedded();
        try (Connection c = DriverManager.getConnection(
                        h.stack.database().jdbcUrl(),
                        h.stack.database().user(),
                        h.stack.database().password());
                Projector p = Projector.start(settings);
                KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
                        ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            SenderGrant g = SenderGrants.add(
                    c,
                    new SenderGrants.Request(
                            key.publicKey(), "voting", board, List.of("CAST_VOTE"), GRANTED, null, "test"));
            send(raw, h.topic, codec, signed(board, "before", StatementKind.CAST_VOTE, key), null);
            h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(1, h.size(board));
            // revoked now: the producer's next timestamp is at or after it
            SenderGrants.revoke(c, g.grantId(), Instant.now(), "test", "compromised");
            send(raw, h.topic, codec, signed(board, "after", StatementKind.CAST_VOTE, key), null);
            h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(1, p.metrics().deadLetters());
            assertEquals(1L, p.metrics().snapshot().get("dead_letters_sender_revoked"));
        }
        assertEquals(1, h.size(board), "the statement before the revocation stays; the one after is refused");
    }

    @Test
    void theRegistryNeedsVerifiedSenderSignatures() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> SignaturePolicy.parse("NONE", null, null, "ENFORCE"));
        assertTrue(e.getMessage().contains("only a claim"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SignaturePolicy.parse("SENDER", null, null, "maybe"));
        assertTrue(SignaturePolicy.parse("SENDER", "reg-.*", null, "enforce").registryCovers("reg-x"));
        assertEquals(
                false, SignaturePolicy.parse("SENDER", "reg-.*", null, "OFF").registryCovers("reg-x"));
    }

    @Test
    void decisionsAreAPureFunctionOfTheGrants() {
        byte[] key = new byte[32];
        SenderGrant open = grant(1, "b", List.of("CAST_VOTE"), GRANTED, null, null);
        SenderGrant closed = grant(2, "b", List.of("CAST_VOTE"), GRANTED, REVOKED, REVOKED);
        long t = Instant.parse("2022-01-01T00:00:00Z").toEpochMilli();
        assertEquals(Optional.empty(), SenderRegistry.decide(List.of(open), "b", "CAST_VOTE", t, key));
        assertEquals(
                BadEventException.Reason.SENDER_REVOKED,
                SenderRegistry.decide(List.of(closed), "b", "CAST_VOTE", t, key)
                        .orElseThrow()
                        .reason());
        assertEquals(
                Optional.empty(),
                SenderRegistry.decide(List.of(closed, open), "b", "CAST_VOTE", t, key),
                "a second, open grant still covers the kind");
        assertEquals(
                Optional.empty(),
                SenderRegistry.decide(List.of(closed), "b", "CAST_VOTE", REVOKED.toEpochMilli() - 1, key),
                "the last millisecond before the revocation is covered");
        assertEquals(
                BadEventException.Reason.SENDER_NOT_PERMITTED,
                SenderRegistry.decide(List.of(open), "c", "CAST_VOTE", t, key)
                        .orElseThrow()
                        .reason());
        assertEquals(
                BadEventException.Reason.SENDER_UNREGISTERED,
                SenderRegistry.decide(List.of(), "b", "CAST_VOTE", t, key)
                        .orElseThrow()
                        .reason());
    }

    private static SenderGrant grant(
            long id, String board, List<String> kinds, Instant from, Instant until, Instant revoked) {
        return new SenderGrant(
                id,
                new byte[32],
                "s",
                board,
                kinds,
                from,
                until,
                from,
                "test",
                revoked,
                revoked == null ? null : "test",
                revoked == null ? null : "why");
    }

    static Envelope signed(String board, String id, StatementKind kind, SigningKey key) {
        Statement st = Statement.newBuilder(ProjectorHarness.statement(board, id, 1_000))
                .setKind(kind)
                .setSenderPublicKey(ByteBuffer.wrap(key.publicKey()))
                .build();
        byte[] canonical = CanonicalStatement.encode(st);
        return Envelope.newBuilder()
                .setStatement(st)
                .setSenderSignature(ByteBuffer.wrap(key.sign(canonical)))
                .build();
    }

    static void send(KafkaProducer<String, byte[]> raw, String topic, StatementCodec codec, Envelope e, Long ts)
            throws Exception {
        raw.send(new ProducerRecord<>(topic, null, ts, e.getStatement().getBoard(), codec.encode(e)))
                .get();
    }
}
