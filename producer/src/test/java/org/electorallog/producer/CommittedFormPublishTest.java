package org.electorallog.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Hashes;
import org.electorallog.core.SigningKey;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.PersonalData;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.ContentKeys;
import org.electorallog.statement.DataKeys;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.statement.PersonalCommitment;
import org.electorallog.statement.PersonalOpenings;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.electorallog.store.KeyMaker;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SqlDataKeys;
import org.electorallog.store.SqlSealingKeys;
import org.electorallog.testkit.TopicReader;
import org.junit.jupiter.api.Test;

/**
 * The producer in the committed form (issue 46, docs/personal-data.md) against the real broker and
 * the PostgreSQL key store: what reaches the topic holds commitments, signed; the values and salts
 * travel encrypted under a content key wrapped to the day's public key, which the log made on the
 * producer's request, and open the commitments; an erased day is refused.
 */
class CommittedFormPublishTest {
    private final Stack stack = SharedStack.get();

    @Test
    void aVoteReachesTheTopicCommittedSignedAndWithItsOpeningsSealed() throws Exception {
        String topic = "producer-committed";
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 1, (short) 1);
        SigningKey sender = SigningKey.generate();
        KeyEncryptionKeys kek = KeyEncryptionKeys.generate();
        try (HikariDataSource db = keyStore();
                KeyMaker maker = new KeyMaker(db, kek)) {
            maker.start(); // the log's part (the projector's): makes the keys producers ask for
            SqlSealingKeys keys = new SqlSealingKeys(db);
            Statement vote = new ElectionStatements("committed-board", 3).vote("user-42", 1_796_000_000_000L);
            vote.setSenderPublicKey(ByteBuffer.allocate(0));
            PublishResult result;
            try (ElectoralLogProducer p = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                    .topic(topic)
                    .senderKey(sender)
                    .committedForm(keys)
                    .build()) {
                result = p.publish(vote).get();

                Statement longUser =
                        new ElectionStatements("committed-board", 6).vote("u".repeat(300), 1_796_000_000_000L);
                longUser.setSenderPublicKey(ByteBuffer.allocate(0));
                StatementRejectedException tooLong =
                        assertThrows(StatementRejectedException.class, () -> p.publish(longUser));
                assertTrue(
                        tooLong.getMessage().contains("user_id"),
                        "checked before it is committed: " + tooLong.getMessage());

                Envelope signedElsewhere = Envelope.newBuilder()
                        .setStatement(new ElectionStatements("committed-board", 4).vote("user-43", 1_796_000_000_000L))
                        .setSenderSignature(ByteBuffer.wrap(new byte[64]))
                        .build();
                try (ElectoralLogProducer unsigned = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                        .topic(topic)
                        .committedForm(keys)
                        .build()) {
                    StatementRejectedException e =
                            assertThrows(StatementRejectedException.class, () -> unsigned.publish(signedElsewhere));
                    assertTrue(e.getMessage().contains("committing them would void it"), e.getMessage());
                }
            }

            List<ConsumerRecord<String, byte[]>> records = TopicReader.readAll(stack.kafkaBootstrap(), topic);
            assertEquals(1, records.size(), "the refused envelope was never sent");
            byte[] value = records.get(0).value();
            for (String personal : List.of("user-42", "10.0.0.1", "example.org")) {
                assertFalse(
                        new String(value, StandardCharsets.ISO_8859_1).contains(personal),
                        "no personal value in the event's bytes: " + personal);
            }
            Envelope e = StatementCodec.embedded().decodeSpecific(value);
            Statement st = e.getStatement();
            assertEquals(2, st.getFormatVersion());
            assertNull(st.getUserId());
            byte[] canonical = CanonicalStatement.encode(st);
            assertTrue(SigningKey.verify(sender.publicKey(), canonical, bytes(e.getSenderSignature())));
            assertEquals(
                    java.util.Base64.getEncoder().encodeToString(Hashes.leafHash(canonical)), result.leafHashBase64());

            PersonalData personal = e.getPersonal();
            assertEquals("committed-board/2026-11-30", personal.getKeyId().toString());
            // only the log's private half opens the content key the producer wrapped to the public one
            DataKeys.Lookup key =
                    new SqlDataKeys(db, kek).find(personal.getKeyId().toString());
            byte[] contentKey = ContentKeys.unwrap(
                    personal.getKeyId().toString(), key.key().privateKey(), bytes(personal.getWrappedKey()));
            List<Opening> openings = PersonalOpenings.open(
                    new PersonalOpenings.Sealed(
                            personal.getKeyId().toString(),
                            bytes(personal.getWrappedKey()),
                            bytes(personal.getNonce()),
                            bytes(personal.getCiphertext())),
                    contentKey,
                    Hashes.leafHash(canonical));
            assertEquals(4, openings.size());
            for (Opening o : openings) {
                assertTrue(PersonalCommitment.opens(
                        bytes(st.getCommitments().get(o.path())),
                        "committed-board",
                        st.getDeliveryId().toString(),
                        o.path(),
                        o.salt(),
                        o.value()));
            }
            assertEquals(
                    "user-42",
                    openings.stream()
                            .filter(o -> o.path().equals("user_id"))
                            .findFirst()
                            .orElseThrow()
                            .value());

            // erased: the day's statements can no longer be committed under its key
            try (Connection c = db.getConnection()) {
                c.createStatement()
                        .executeUpdate(
                                "UPDATE personal_keys.data_keys SET wrapped = NULL, kek_id = NULL, erased = now()"
                                        + " WHERE key_id = 'committed-board/2026-11-30'");
            }
            try (ElectoralLogProducer p = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                    .topic(topic)
                    .senderKey(sender)
                    .committedForm(new SqlSealingKeys(db))
                    .build()) {
                Statement late = new ElectionStatements("committed-board", 5).vote("user-44", 1_796_000_000_000L);
                late.setSenderPublicKey(ByteBuffer.allocate(0));
                IllegalStateException refused = assertThrows(IllegalStateException.class, () -> p.publish(late));
                assertTrue(refused.getMessage().contains("was erased"), refused.getMessage());
            }
        }
    }

    private HikariDataSource keyStore() throws Exception {
        DatabaseLogin admin = stack.database();
        String name = "producer_keys_" + System.nanoTime();
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl(), admin.user(), admin.password())) {
            c.createStatement().execute("CREATE DATABASE " + name);
        }
        HikariDataSource ds = ProjectionDatabase.pool(
                admin.onDatabase(name).jdbcUrl(), admin.user(), admin.password(), 2, "producer-keys-test");
        Migrations.apply(ds);
        return ds;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
