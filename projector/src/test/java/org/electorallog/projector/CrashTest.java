package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.core.NoteSigner;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.BoardState;
import org.electorallog.store.Boards;
import org.electorallog.store.ProjectionComparison;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/**
 * BRIEF invariant 1 under crashes: the projector runs as a child JVM and is killed with SIGKILL at
 * random moments while statements are being published; afterwards every statement is projected
 * exactly once, in publish order per board, and the database equals a fresh replay of the topic
 * (same IDs, tiles, roots and counters). One board is sealed nine tenths in and its seal sent again later
 * (issue 42: a seal lost in a crash and redelivered seals once): it ends at the seal, and every
 * statement after it is dead-lettered {@code BOARD_SEALED} exactly once. CI: 200,000 statements
 * and 10 kills; {@code -Pfull}: 50 kills.
 */
class CrashTest {
    static final int STATEMENTS = Integer.getInteger("electoral-log.crash.statements", 200_000);
    static final int KILLS = Integer.getInteger("electoral-log.crash.kills", 10);
    static final int BOARDS = 8;
    static final long PARTITION_WIDTH = 4096;
    /** The board sealed nine tenths in (its statement number SEAL_AT is the seal), and the seal's redelivery. */
    static final String SEALED = "crash-board-3";

    static final int SEAL_AT = STATEMENTS / BOARDS * 9 / 10;
    static final int SEAL_AGAIN = STATEMENTS / BOARDS * 19 / 20;

    @Test
    void sigkillAtRandomMomentsLosesAndDoublesNothingAndEqualsAReplay() throws Exception {
        ProjectorHarness h = new ProjectorHarness("crash", 4);
        // partitions of 4,096 records: every board crosses several while the kills land (decision 86)
        String live = h.createDatabase("crash_live_" + System.nanoTime(), PARTITION_WIDTH);
        NoteSigner signer = NoteSigner.generate("crash.electoral-log.local");
        Path work = Files.createDirectories(Path.of("target/crash").toAbsolutePath());
        long seed = Long.getLong("electoral-log.crash.seed", System.nanoTime());
        // printed, so that a failure can be replayed: -Delectoral-log.crash.seed=<seed> (issue 44 item 5)
        System.out.println("CrashTest seed " + seed + " (replay: -Delectoral-log.crash.seed=" + seed + ")");
        Random random = new Random(seed);

        Map<String, List<String>> published = new LinkedHashMap<>();
        for (int b = 0; b < BOARDS; b++) {
            published.put("crash-board-" + b, new ArrayList<>());
        }
        List<String> afterSeal = new ArrayList<>();
        AtomicReference<Throwable> publishFailure = new AtomicReference<>();
        Thread publisher = new Thread(
                () -> {
                    // signed with the log's key: the seal is taken from no other (decision 130)
                    try (ElectoralLogProducer p = ElectoralLogProducer.builder(h.stack.kafkaBootstrap())
                            .topic(h.topic)
                            .senderKey(signer.statementKey())
                            .build()) {
                        List<String> boards = new ArrayList<>(published.keySet());
                        long pace = Math.max(1, (KILLS * 1500L) / Math.max(1, STATEMENTS / 1000));
                        for (int i = 0; i < STATEMENTS; i++) {
                            String board = boards.get(i % BOARDS);
                            String id = board + "/" + i;
                            Statement st = ProjectorHarness.statement(board, id, 1_767_225_600_000L + i);
                            if (board.equals(SEALED) && (i / BOARDS == SEAL_AT || i / BOARDS == SEAL_AGAIN)) {
                                // the seal, and later the same seal again (a redelivery): sealed once
                                id = "seal:" + SEALED;
                                st = BoardSealTest.seal(SEALED, id);
                            }
                            if (board.equals(SEALED) && i / BOARDS > SEAL_AT) {
                                if (i / BOARDS != SEAL_AGAIN) {
                                    afterSeal.add(id); // dead-lettered BOARD_SEALED
                                }
                            } else {
                                published.get(board).add(id);
                            }
                            p.publish(st).whenComplete((r, e) -> {
                                if (e != null) {
                                    publishFailure.compareAndSet(null, e);
                                }
                            });
                            if (i % 1000 == 999) {
                                Thread.sleep(pace); // spreads the publishing over the kill loop
                            }
                        }
                    } catch (Throwable t) {
                        publishFailure.compareAndSet(null, t);
                    }
                },
                "crash-publisher");
        publisher.start();

        for (int k = 0; k < KILLS; k++) {
            Process child = startChild(h, live, signer, work, k);
            // most kills land while the child projects; some while it is still joining
            String stage = random.nextInt(10) < 8 ? "taken at epoch" : "projector running";
            awaitLine(child, work.resolve("child-" + k + ".log"), stage);
            Thread.sleep(random.nextInt(1500)); // the random moment of the kill
            child.destroyForcibly(); // SIGKILL
            child.waitFor();
        }
        publisher.join();
        assertEquals(null, publishFailure.get(), "every statement was acknowledged by Kafka");

        Process last = startChild(h, live, signer, work, KILLS);
        Map<Integer, Long> end = h.endOffsets();
        try {
            h.awaitProjected(live, end, Duration.ofMinutes(5));
        } finally {
            last.destroy();
            last.waitFor();
        }

        DatabaseLogin db = h.stack.database();
        try (Connection c = DriverManager.getConnection(live, db.user(), db.password())) {
            long total = 0;
            for (Map.Entry<String, List<String>> e : published.entrySet()) {
                List<String> ids = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT r.id, r.delivery_id FROM records r JOIN boards b USING (board_id) WHERE b.name = ? ORDER BY r.id")) {
                    ps.setString(1, e.getKey());
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            assertEquals(ids.size(), rs.getLong(1), "IDs gap-free on " + e.getKey());
                            ids.add(rs.getString(2));
                        }
                    }
                }
                assertEquals(
                        e.getValue(), ids, "board " + e.getKey() + " holds every statement once, in publish order");
                total += ids.size();
            }
            assertEquals(
                    STATEMENTS - afterSeal.size() - 1, total, "the statements after the seal, the redelivered seal");
            BoardState sealed = Boards.state(c, SEALED).orElseThrow();
            assertEquals(SEAL_AT + 1L, sealed.size(), "sealed once, at the first seal");
            assertTrue(sealed.sealedMillis() != null);
            assertEquals(StatementKinds.BOARD_SEALED, BoardSealTest.kindOf(c, sealed, SEAL_AT));
        }
        // a crash between a dead letter and its batch's commit repeats the dead letter with the same
        // source (DeadLetterPublisher): counted once per source event
        StatementCodec codec = StatementCodec.embedded();
        Map<String, String> refused = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> r : DeadLetters.read(h)) {
            assertEquals("BOARD_SEALED", header(r, "dlq.reason"));
            refused.putIfAbsent(
                    header(r, "dlq.source.partition") + "@" + header(r, "dlq.source.offset"),
                    codec.decode(r.value()).deliveryId());
        }
        assertEquals(
                afterSeal,
                new ArrayList<>(refused.values()),
                "every statement after the seal dead-lettered, in order, none twice from one event");

        String replay = h.createDatabase("crash_replay_" + System.nanoTime(), PARTITION_WIDTH);
        ProjectorSettings replaySettings = h.settings
                .withApplicationId("replay-" + h.topic)
                .withDatabase(db.atUrl(replay))
                .withStateDir(work.resolve("replay-state"));
        try (Projector p = Projector.start(ProjectorSettings.defaults(
                        replaySettings.bootstrap(), replaySettings.login(), replaySettings.stateDir(), signer)
                .withTopics(replaySettings.topic(), replaySettings.deadLetterTopic())
                .withApplicationId(replaySettings.applicationId())
                .withBatch(5000, Duration.ofMillis(100))
                .withOriginPrefix(replaySettings.originPrefix()))) {
            h.awaitProjected(replay, end, Duration.ofMinutes(5));
        }
        try (HikariDataSource a = ProjectionDatabase.pool(live, db.user(), db.password(), 2, "live");
                HikariDataSource b = ProjectionDatabase.pool(replay, db.user(), db.password(), 2, "replay")) {
            assertEquals(List.of(), ProjectionComparison.compare(a, b), "the crashed projection equals a fresh replay");
        }
    }

    Process startChild(ProjectorHarness h, String jdbcUrl, NoteSigner signer, Path work, int k) throws IOException {
        return startChild(h, jdbcUrl, signer, work, k, "crash-instance");
    }

    Process startChild(ProjectorHarness h, String jdbcUrl, NoteSigner signer, Path work, int k, String instance)
            throws IOException {
        Files.createDirectories(work);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                java,
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.electorallog.schemas.avro",
                "org.electorallog.projector.ProjectorMain");
        Map<String, String> env = pb.environment();
        DatabaseLogin db = h.stack.database();
        env.put(Setting.KAFKA_BOOTSTRAP.env, h.stack.kafkaBootstrap());
        env.put(Setting.JDBC_URL.env, jdbcUrl);
        env.put(Setting.DB_USER.env, db.user());
        env.put(Setting.DB_PASSWORD.env, db.password());
        env.put(Setting.TOPIC.env, h.topic);
        env.put(Setting.DEAD_LETTER_TOPIC.env, h.deadLetters);
        env.put(Setting.APPLICATION_ID.env, "crash-" + h.topic);
        env.put(Setting.INSTANCE_ID.env, instance);
        env.put(Setting.STATE_DIR.env, work.resolve("state").toString());
        env.put(Setting.SIGNING_KEY.env, signer.signerKey());
        env.put(Setting.ORIGIN_PREFIX.env, h.settings.originPrefix());
        env.put(Setting.BATCH_MAX_RECORDS.env, "2000");
        env.put(Setting.BATCH_MAX_WAIT_MS.env, "50");
        env.put(Setting.METRICS_PORT.env, "0");
        pb.redirectErrorStream(true)
                .redirectOutput(work.resolve("child-" + k + ".log").toFile());
        return pb.start();
    }

    static String header(ConsumerRecord<String, byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    static void awaitLine(Process child, Path log, String line) throws Exception {
        Poll.until(Duration.ofSeconds(60), "the projector child to log '" + line + "'", () -> {
            if (Files.exists(log) && Files.readString(log).contains(line)) {
                return true;
            }
            assertTrue(
                    child.isAlive(),
                    "the projector child died on its own: " + (Files.exists(log) ? Files.readString(log) : ""));
            return false;
        });
    }
}
