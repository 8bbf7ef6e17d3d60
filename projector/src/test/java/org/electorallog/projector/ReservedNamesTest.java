package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.SigningKey;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.store.Boards;
import org.electorallog.store.ProjectionComparison;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SenderGrant;
import org.electorallog.store.SenderGrants;
import org.junit.jupiter.api.Test;

/**
 * Issue 61 item 1, played by the attacker: a producer holding a wildcard grant (board {@code *},
 * kinds {@code *}) of an enforced registry, and an unsigned producer on a board no policy covers,
 * try every name only the log writes: a vote under a board's seal ID, under a heads entry's ID and
 * under an erasure's; a LOG_CHECKPOINT on the heads board under the head writer's next ID; a seal of
 * the heads board; a seal and an erasure's account of their own. Each is dead-lettered
 * RESERVED_NAME and takes no ID; the log's own seal, signed with its key, then seals the board
 * although the registry has no grant for it; a replay refuses and takes the same.
 */
class ReservedNamesTest {
    private static final Instant GRANTED = Instant.parse("2020-01-01T00:00:00Z");
    private static final long IN_GRANT = Instant.parse("2020-06-01T00:00:00Z").toEpochMilli();

    @Test
    void noSenderButTheLogTakesAReservedNameWhateverItsGrantOrThePolicy() throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String board = "res-" + suffix;
        String open = "open-" + suffix; // outside the signed boards: policy NONE there
        SigningKey wildcard = SigningKey.generate();
        ProjectorHarness h = new ProjectorHarness("reserved", 1);
        DatabaseLogin db = h.stack.database();
        String url = h.createDatabase("reserved_" + suffix);
        grantEverything(url, db, wildcard);
        ProjectorSettings settings = h.settings
                .withDatabase(db.atUrl(url))
                .withSignatures(
                        new SignaturePolicy(SignaturePolicy.Mode.SENDER, Pattern.compile("res-.*"), List.of(), true));
        SigningKey log = settings.signer().statementKey();
        StatementCodec codec = StatementCodec.embedded();
        try (Projector p = Projector.start(settings);
                KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
                        ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            send(raw, h, codec, signed(board, "vote-1", StatementKind.CAST_VOTE, wildcard));
            send(raw, h, codec, signed(board, "seal:" + board, StatementKind.CAST_VOTE, wildcard));
            send(raw, h, codec, signed(board, "head:" + board + ":1", StatementKind.CAST_VOTE, wildcard));
            send(raw, h, codec, signed(board, "erase:" + board + ":x", StatementKind.CAST_VOTE, wildcard));
            send(raw, h, codec, signed("heads", "head:" + board + ":2", StatementKind.LOG_CHECKPOINT, wildcard));
            send(raw, h, codec, signed("heads", "seal:heads", StatementKind.BOARD_SEALED, log));
            send(raw, h, codec, signed(board, "my-seal", StatementKind.BOARD_SEALED, wildcard));
            send(raw, h, codec, signed("erasures", "erase:own", StatementKind.PERSONAL_DATA_ERASED, wildcard));
            // unsigned, on a board no signature policy covers: the rule holds whatever the policy
            send(
                    raw,
                    h,
                    codec,
                    Envelope.newBuilder()
                            .setStatement(ProjectorHarness.statement(open, "seal:" + open, 1_000))
                            .build());
            Statement unsignedSeal = Statement.newBuilder(ProjectorHarness.statement(open, "seal:" + open, 1_000))
                    .setKind(StatementKind.BOARD_SEALED)
                    .build();
            send(raw, h, codec, Envelope.newBuilder().setStatement(unsignedSeal).build());
            // the log's own seal of the registry's board: taken, with no grant for it
            send(raw, h, codec, signed(board, "seal:" + board, StatementKind.BOARD_SEALED, log));
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
        }
        assertEquals(
                new TreeMap<>(Map.of(
                        "seal:" + board,
                        "RESERVED_NAME",
                        "head:" + board + ":1",
                        "RESERVED_NAME",
                        "erase:" + board + ":x",
                        "RESERVED_NAME",
                        "head:" + board + ":2",
                        "RESERVED_NAME",
                        "seal:heads",
                        "RESERVED_NAME",
                        "my-seal",
                        "RESERVED_NAME",
                        "erase:own",
                        "RESERVED_NAME",
                        "seal:" + open,
                        "RESERVED_NAME")),
                DeadLetters.reasons(h),
                "the squatted seal ID of the registry's board is dead-lettered once (the log's seal took it)");
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            assertEquals(2, Boards.state(c, board).orElseThrow().size(), "the vote and the log's seal");
            assertNotNull(Boards.state(c, board).orElseThrow().sealedMillis(), "sealed by the log's seal");
            assertEquals(java.util.Optional.empty(), Boards.state(c, "heads"), "nothing reached the heads board");
            assertEquals(java.util.Optional.empty(), Boards.state(c, "erasures"));
            assertNull(
                    Boards.state(c, open).map(s -> s.board()).orElse(null), "no statement of the open board was taken");
        }

        // a replay of the topic refuses and takes the same (the rule reads the statement and the keys only)
        String replay = h.createDatabase("reserved_replay_" + suffix);
        grantEverything(replay, db, wildcard);
        try (Projector p = Projector.start(settings.withApplicationId("replay-" + h.topic)
                .withDatabase(db.atUrl(replay))
                .withStateDir(h.settings.stateDir().resolveSibling("replay-" + h.topic)))) {
            h.awaitProjected(replay, h.endOffsets(), Duration.ofMinutes(1));
        }
        try (HikariDataSource a = ProjectionDatabase.pool(url, db.user(), db.password(), 2, "reserved-live");
                HikariDataSource b = ProjectionDatabase.pool(replay, db.user(), db.password(), 2, "reserved-replay")) {
            assertEquals(List.of(), ProjectionComparison.compare(a, b), "the replay equals the live projection");
        }
    }

    /** Migrates the database at {@code url} and grants {@code key} every kind on every board (a wildcard grant). */
    private static void grantEverything(String url, DatabaseLogin db, SigningKey key) throws Exception {
        try (HikariDataSource ds = ProjectionDatabase.pool(url, db.user(), db.password(), 4, "reserved-grants");
                Connection c = ds.getConnection()) {
            org.electorallog.store.Migrations.apply(ds);
            SenderGrants.add(
                    c,
                    new SenderGrants.Request(
                            key.publicKey(),
                            "everything",
                            SenderGrant.ANY,
                            List.of(SenderGrant.ANY),
                            GRANTED,
                            null,
                            "test"));
        }
    }

    private static Envelope signed(String board, String id, StatementKind kind, SigningKey key) {
        Statement st = Statement.newBuilder(ProjectorHarness.statement(board, id, 1_000))
                .setKind(kind)
                .setUserId(null)
                .setSenderPublicKey(ByteBuffer.wrap(key.publicKey()))
                .build();
        return Envelope.newBuilder(SenderRegistryTest.signed(board, id, kind, key))
                .setStatement(st)
                .setSenderSignature(ByteBuffer.wrap(key.sign(org.electorallog.schemas.CanonicalStatement.encode(st))))
                .build();
    }

    private static void send(KafkaProducer<String, byte[]> raw, ProjectorHarness h, StatementCodec codec, Envelope e)
            throws Exception {
        SenderRegistryTest.send(raw, h.topic, codec, e, IN_GRANT);
    }
}
