package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.EmbeddedKafkaBroker;
import org.electorallog.infra.EmbeddedPostgresServer;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.schemas.Topics;
import org.electorallog.store.LogWriter;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/**
 * BRIEF invariant 1 in the other failure windows: Kafka committed past PostgreSQL, an instance dying
 * with another taking over (and its zombie batch fenced), PostgreSQL restarting and the broker
 * restarting in the middle of a run.
 */
class ResilienceTest {

    static List<String> publish(ElectoralLogProducer p, String board, int from, int to) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String id = board + "/" + i;
            ids.add(id);
            p.publish(ProjectorHarness.statement(board, id, 1_767_225_600_000L + i));
        }
        p.flush();
        return ids;
    }

    static List<String> deliveryIds(String jdbcUrl, DatabaseLogin db, String board) throws Exception {
        List<String> ids = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl, db.user(), db.password());
                PreparedStatement ps = c.prepareStatement(
                        "SELECT r.id, r.delivery_id FROM records r JOIN boards b USING (board_id) WHERE b.name = ? ORDER BY r.id")) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    assertEquals(ids.size(), rs.getLong(1));
                    ids.add(rs.getString(2));
                }
            }
        }
        return ids;
    }

    @Test
    void aGapWhereKafkaCommittedPastPostgresIsProjected() throws Exception {
        ProjectorHarness h = new ProjectorHarness("gap", 1);
        String board = "gap-board";
        List<String> expected = new ArrayList<>();
        try (ElectoralLogProducer p =
                ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            try (Projector projector = Projector.start(h.settings)) {
                expected.addAll(publish(p, board, 0, 300));
                h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            }
            expected.addAll(publish(p, board, 300, 1000));
        }
        // the window: Kafka has committed the group past everything, PostgreSQL holds offset 300
        Map<Integer, Long> end = h.endOffsets();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.stack.kafkaBootstrap()))) {
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            end.forEach((part, off) -> commit.put(new TopicPartition(h.topic, part), new OffsetAndMetadata(off)));
            admin.alterConsumerGroupOffsets(h.settings.applicationId(), commit)
                    .all()
                    .get();
        }
        assertEquals(300, h.projectedOffset(0));
        try (Projector projector = Projector.start(h.settings)) {
            h.awaitProjected(h.stack.database().jdbcUrl(), end, Duration.ofMinutes(1));
        }
        assertEquals(
                expected,
                deliveryIds(h.stack.database().jdbcUrl(), h.stack.database(), board),
                "the 700 statements Kafka had committed without PostgreSQL were projected, once, in order");
    }

    /**
     * A bad event below PostgreSQL's offset is redelivered only when Kafka did not commit past it, so
     * its earlier dead letter was aborted with that transaction; it must be dead-lettered again
     * (invariant 6). Rewinding the group's committed offset stands in for the aborted transaction.
     */
    @Test
    void aRedeliveredBadEventIsDeadLetteredAgainAndNothingIsProjectedTwice() throws Exception {
        ProjectorHarness h = new ProjectorHarness("redeliver", 1);
        String board = "redeliver-board";
        org.electorallog.schemas.StatementCodec codec = org.electorallog.schemas.StatementCodec.embedded();
        try (var raw = new org.apache.kafka.clients.producer.KafkaProducer<String, byte[]>(
                ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            try (Projector p = Projector.start(h.settings)) {
                raw.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                                h.topic,
                                board,
                                codec.encode(org.electorallog.schemas.avro.Envelope.newBuilder()
                                        .setStatement(ProjectorHarness.statement(board, "r-1", 1))
                                        .build())))
                        .get();
                raw.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                                h.topic, board, new byte[] {0, 0, 0, 0, 1, 9}))
                        .get();
                raw.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                                h.topic,
                                board,
                                codec.encode(org.electorallog.schemas.avro.Envelope.newBuilder()
                                        .setStatement(ProjectorHarness.statement(board, "r-2", 2))
                                        .build())))
                        .get();
                h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            }
            assertEquals(1, DeadLetters.read(h).size());
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.stack.kafkaBootstrap()))) {
                admin.alterConsumerGroupOffsets(
                                h.settings.applicationId(),
                                Map.of(new TopicPartition(h.topic, 0), new OffsetAndMetadata(0)))
                        .all()
                        .get();
            }
            try (Projector p = Projector.start(h.settings)) {
                raw.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                                h.topic,
                                board,
                                codec.encode(org.electorallog.schemas.avro.Envelope.newBuilder()
                                        .setStatement(ProjectorHarness.statement(board, "r-3", 3))
                                        .build())))
                        .get();
                h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            }
        }
        assertEquals(
                List.of("r-1", "r-2", "r-3"),
                deliveryIds(h.stack.database().jdbcUrl(), h.stack.database(), board),
                "the redelivered good events were skipped, not projected again");
        assertEquals(2, DeadLetters.read(h).size(), "the redelivered bad event was dead-lettered again");
    }

    @Test
    void aKilledInstanceHandsItsPartitionsOverAndItsZombieBatchIsFenced() throws Exception {
        ProjectorHarness h = new ProjectorHarness("handover", 4);
        String live = h.createDatabase("handover_" + System.nanoTime());
        DatabaseLogin db = h.stack.database();
        NoteSigner signer = NoteSigner.generate("handover.electoral-log.local");
        Path work = Files.createDirectories(Path.of("target/handover").toAbsolutePath());
        CrashTest crash = new CrashTest();
        List<String> boards = List.of("ho-a", "ho-b", "ho-c", "ho-d", "ho-e", "ho-f");
        Map<String, List<String>> expected = new HashMap<>();
        Process a = crash.startChild(h, live, signer, work.resolve("a"), 0, "instance-a");
        Process b = crash.startChild(h, live, signer, work.resolve("b"), 0, "instance-b");
        Path logA = work.resolve("a").resolve("child-0.log");
        try (ElectoralLogProducer p =
                ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            CrashTest.awaitLine(a, logA, "taken at epoch");
            CrashTest.awaitLine(b, work.resolve("b").resolve("child-0.log"), "taken at epoch");
            for (String board : boards) {
                expected.computeIfAbsent(board, x -> new ArrayList<>()).addAll(publish(p, board, 0, 500));
            }
            h.awaitProjected(live, h.endOffsets(), Duration.ofMinutes(2));
            // the partitions instance A holds now, at the epochs it took them with
            Map<Integer, Long> heldByA = new HashMap<>();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("partition (\\d+) taken at epoch (\\d+)")
                    .matcher(Files.readString(logA));
            while (m.find()) {
                heldByA.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
            }
            Map<Integer, long[]> before = offsetsAndEpochs(live, db, h.topic);
            heldByA.entrySet()
                    .removeIf(e -> before.get(e.getKey()) == null || before.get(e.getKey())[1] != e.getValue());
            assertTrue(!heldByA.isEmpty(), "instance A holds a partition before it is killed");
            a.destroyForcibly(); // SIGKILL instance A
            a.waitFor();
            for (String board : boards) {
                expected.get(board).addAll(publish(p, board, 500, 1000));
            }
            h.awaitProjected(live, h.endOffsets(), Duration.ofMinutes(2));
            Map<Integer, long[]> after = offsetsAndEpochs(live, db, h.topic);
            for (Map.Entry<Integer, Long> e : heldByA.entrySet()) {
                assertTrue(after.get(e.getKey())[1] > e.getValue(), "partition " + e.getKey() + " was taken over by B");
            }

            // a late batch from the killed instance carries its old epoch: refused, nothing written
            int part = heldByA.keySet().iterator().next();
            long staleEpoch = heldByA.get(part);
            long[] now = after.get(part);
            BatchWriter zombie = new BatchWriter(
                    new CheckpointScheduler(signer, Duration.ZERO, Duration.ZERO), "zombie/", SignaturePolicy.none());
            org.electorallog.store.PartitionLease stale =
                    new org.electorallog.store.PartitionLease(h.topic, part, now[0], staleEpoch);
            try (Connection c = DriverManager.getConnection(live, db.user(), db.password())) {
                c.setAutoCommit(false);
                assertThrows(
                        FencedException.class,
                        () -> zombie.write(LogWriter.on(c), stale, now[0], now[0] + 1, List.of(), new HashMap<>()));
                c.rollback();
            }
            assertEquals(now[0], offsetsAndEpochs(live, db, h.topic).get(part)[0], "the zombie moved nothing");
        } finally {
            a.destroyForcibly();
            b.destroy();
            b.waitFor();
        }
        for (String board : boards) {
            assertEquals(
                    expected.get(board), deliveryIds(live, db, board), "board " + board + ": nothing lost or doubled");
        }
    }

    static Map<Integer, long[]> offsetsAndEpochs(String jdbcUrl, DatabaseLogin db, String topic) throws Exception {
        Map<Integer, long[]> out = new HashMap<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl, db.user(), db.password());
                PreparedStatement ps = c.prepareStatement(
                        "SELECT partition, next_offset, epoch FROM partition_offsets WHERE topic = ?")) {
            ps.setString(1, topic);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getInt(1), new long[] {rs.getLong(2), rs.getLong(3)});
                }
            }
        }
        return out;
    }

    @Test
    void postgresRestartingInTheMiddleOfARunLosesAndDoublesNothing() throws Exception {
        ProjectorHarness h = new ProjectorHarness("pgrestart", 2);
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/stack")), "pg-restart-");
        try (EmbeddedPostgresServer pg = EmbeddedPostgresServer.start(dir)) {
            DatabaseLogin db = pg.address();
            ProjectorSettings settings = h.settings.withDatabase(db);
            List<String> expected = new ArrayList<>();
            try (Projector projector = Projector.start(settings);
                    ElectoralLogProducer p = ElectoralLogProducer.create(
                            ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
                expected.addAll(publish(p, "pg-board", 0, 2000));
                pg.stop();
                expected.addAll(publish(p, "pg-board", 2000, 4000));
                pg.restart();
                expected.addAll(publish(p, "pg-board", 4000, 6000));
                h.awaitProjected(db.jdbcUrl(), h.endOffsets(), Duration.ofMinutes(3));
            }
            assertEquals(expected, deliveryIds(db.jdbcUrl(), db, "pg-board"));
        }
    }

    @Test
    void theBrokerRestartingInTheMiddleOfARunLosesAndDoublesNothing() throws Exception {
        ProjectorHarness shared = new ProjectorHarness("brokerrestart", 1);
        String live = shared.createDatabase("broker_restart_" + System.nanoTime());
        DatabaseLogin db = shared.stack.database();
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/stack")), "broker-restart-");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir.resolve("kafka"))) {
            String topic = Topics.EVENTS;
            EventsTopic.ensure(broker.bootstrapServers(), topic, 2, (short) 1);
            EventsTopic.ensure(broker.bootstrapServers(), Topics.DEAD_LETTERS, 1, (short) 1);
            ProjectorSettings settings = ProjectorSettings.defaults(
                    broker.bootstrapServers(),
                    db.atUrl(live),
                    dir.resolve("streams"),
                    NoteSigner.generate("broker-restart.electoral-log.local"));
            List<String> expected = new ArrayList<>();
            try (Projector projector = Projector.start(settings);
                    ElectoralLogProducer p = ElectoralLogProducer.builder(broker.bootstrapServers())
                            .kafka("delivery.timeout.ms", "180000")
                            .blockWhenFull(Duration.ofMinutes(3))
                            .build()) {
                expected.addAll(publish(p, "br-board", 0, 2000));
                broker.stop();
                broker.restart();
                expected.addAll(publish(p, "br-board", 2000, 4000));
                awaitOffsets(broker.bootstrapServers(), topic, live, db, Duration.ofMinutes(3));
            }
            assertEquals(expected, deliveryIds(live, db, "br-board"));
        }
    }

    static void awaitOffsets(String bootstrap, String topic, String jdbcUrl, DatabaseLogin db, Duration timeout)
            throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        Map<Integer, Long> end = new HashMap<>();
        try (var c = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(
                props,
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            c.partitionsFor(topic).forEach(pi -> tps.add(new TopicPartition(topic, pi.partition())));
            c.endOffsets(tps).forEach((tp, off) -> end.put(tp.partition(), off));
        }
        Poll.until(
                timeout,
                "projected to " + end,
                () -> offsetsAndEpochs(jdbcUrl, db, topic),
                stored -> end.entrySet().stream()
                        .allMatch(e -> stored.containsKey(e.getKey()) && stored.get(e.getKey())[0] >= e.getValue()));
    }
}
