package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SigningKey;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.projector.SignaturePolicy;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.store.SenderGrant;
import org.electorallog.store.SenderGrants;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * `electoral-log dead-letters` (issue 16): a statement refused for an unregistered sender is listed
 * with its reason; once the key is registered, re-publishing it (twice) puts it on the board once.
 */
class DeadLettersCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int deadLetters(Map<String, String> env, String... args) {
        DeadLettersCommand c = new DeadLettersCommand();
        c.environment = env;
        c.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        c.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        return new CommandLine(c).execute(args);
    }

    @Test
    void anUnregisteredSendersStatementIsListedAndRepublishedOnceRegistered() throws Exception {
        Stack stack = SharedStack.get();
        DatabaseLogin db = stack.database();
        String suffix = Long.toString(System.nanoTime(), 36);
        String topic = "dl-events-" + suffix;
        String dlq = topic + ".dlq";
        String board = "dl-board-" + suffix;
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 1, (short) 1);
        EventsTopic.ensure(stack.kafkaBootstrap(), dlq, 1, (short) 1);
        ProjectorSettings settings = projectorSettings(stack, topic, "dl-test.electoral-log.local")
                .withSignatures(SignaturePolicy.parse("SENDER", "dl-.*", null, "ENFORCE"));
        Map<String, String> env = new HashMap<>();
        env.put("ELECTORAL_LOG_KAFKA_BOOTSTRAP", stack.kafkaBootstrap());
        env.put("ELECTORAL_LOG_TOPIC", topic);
        env.put("ELECTORAL_LOG_DEAD_LETTER_TOPIC", dlq);
        SigningKey sender = SigningKey.generate();
        StatementCodec codec = StatementCodec.embedded();
        try (Projector p = Projector.start(settings);
                KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
                        ElectoralLogProducer.defaults(stack.kafkaBootstrap()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(topic, board, codec.encode(signed(board, "vote-1", sender, true))))
                    .get();
            raw.send(new ProducerRecord<>(topic, board, codec.encode(signed(board, "vote-2", sender, false))))
                    .get();
            awaitProjected(db, topic, 2);

            // the unsigned one is committed with Kafka Streams' transaction, which may come a moment after
            // PostgreSQL's offset; the unregistered one was sent before its batch committed
            Poll.until(
                    Duration.ofMinutes(1),
                    Duration.ofMillis(100),
                    "both dead letters listed",
                    () -> {
                        out.reset();
                        assertEquals(0, deadLetters(env, "list"), err.toString());
                        return out.toString();
                    },
                    listing -> listing.contains("2 found"));
            out.reset();
            assertEquals(0, deadLetters(env, "list", "--reason", "SENDER_UNREGISTERED", "--board", board));
            Matcher m = Pattern.compile(
                            "^(\\d+@\\d+) .* reason=SENDER_UNREGISTERED source=" + Pattern.quote(topic)
                                    + "-0@0: sender key ",
                            Pattern.MULTILINE)
                    .matcher(out.toString());
            assertTrue(m.find(), out.toString());
            assertTrue(out.toString().contains("1 found"), out.toString());
            String id = m.group(1);

            SenderGrant granted;
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
                granted = SenderGrants.add(
                        c,
                        new SenderGrants.Request(
                                        sender.publicKey(),
                                        "voting",
                                        board,
                                        List.of(SenderGrant.ANY),
                                        null,
                                        null,
                                        "test")
                                .checked(Instant.now(), List.of(), org.electorallog.schemas.BoardName::isValid));
            }
            // the grant covers statements appended from its start (SenderGrants.SETTLE from now) on
            Instant start = granted.validFrom();
            Poll.until(
                    Duration.ofSeconds(30),
                    "the grant to start",
                    () -> Instant.now().isAfter(start));
            out.reset();
            assertEquals(0, deadLetters(env, "republish", "--id", id), err.toString());
            assertTrue(out.toString().contains("republished " + id), out.toString());
            assertEquals(0, deadLetters(env, "republish", "--id", id), err.toString());
            awaitProjected(db, topic, 4);
            assertEquals(1, boardSize(db, board), "two re-publishes of one statement put it on the board once");
            assertEquals(1L, p.metrics().snapshot().get("dead_letters_sender_unregistered"), "refused once, not again");
        }
        out.reset();
        assertEquals(0, deadLetters(env, "list"));
        assertTrue(out.toString().contains("2 found"), "no new dead letter: " + out);
        assertEquals(2, deadLetters(env, "republish"));
        assertTrue(err.toString().contains("--id"), err.toString());
    }

    private static Envelope signed(String board, String id, SigningKey key, boolean sign) {
        Statement st = Statement.newBuilder()
                .setBoard(board)
                .setDeliveryId(id)
                .setKind(StatementKind.CAST_VOTE)
                .setStatementTimestamp(System.currentTimeMillis())
                .setSenderName("voting")
                .setSenderPublicKey(ByteBuffer.wrap(key.publicKey()))
                .setUserId("u-" + id)
                .build();
        byte[] canonical = CanonicalStatement.encode(st);
        return Envelope.newBuilder()
                .setStatement(st)
                .setSenderSignature(sign ? ByteBuffer.wrap(key.sign(canonical)) : null)
                .build();
    }

    /** A projector of {@code topic} (dead letters on {@code <topic>.dlq}) into the stack's database. */
    static ProjectorSettings projectorSettings(Stack stack, String topic, String host) {
        DatabaseLogin db = stack.database();
        return ProjectorSettings.defaults(
                        stack.kafkaBootstrap(), db, Path.of("target/stack/streams-" + topic), NoteSigner.generate(host))
                .withTopics(topic, topic + ".dlq")
                .withApplicationId("app-" + topic)
                .withBatch(500, Duration.ofMillis(50))
                .withOriginPrefix(host + "/")
                .withKeyEncryption(org.electorallog.statement.KeyEncryptionKeys.generate());
    }

    static void awaitProjected(DatabaseLogin db, String topic, long offset) throws Exception {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                PreparedStatement ps = c.prepareStatement(
                        "SELECT coalesce(max(next_offset), 0) FROM partition_offsets WHERE topic = ?")) {
            ps.setString(1, topic);
            Poll.until(Duration.ofMinutes(1), "offset " + offset + " of " + topic + " projected", () -> {
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() && rs.getLong(1) >= offset;
                }
            });
        }
    }

    static long boardSize(DatabaseLogin db, String board) throws Exception {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                PreparedStatement ps = c.prepareStatement(
                        "SELECT s.size FROM board_state s JOIN boards b USING (board_id) WHERE b.name = ?")) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }
}
