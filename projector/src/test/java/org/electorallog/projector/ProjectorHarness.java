package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.EventsTopic;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.testkit.Poll;

/** A topic of its own and projector settings for one test, on the shared stack. */
final class ProjectorHarness {
    private static final AtomicInteger SEQ = new AtomicInteger();
    final Stack stack = SharedStack.get();
    final String topic;
    final String deadLetters;
    final ProjectorSettings settings;

    ProjectorHarness(String name, int partitions) {
        int n = SEQ.incrementAndGet();
        topic = "test-" + name + "-" + n + "-" + System.nanoTime();
        deadLetters = topic + ".dlq";
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, partitions, (short) 1);
        EventsTopic.ensure(stack.kafkaBootstrap(), deadLetters, 1, (short) 1);
        DatabaseLogin db = stack.database();
        settings = ProjectorSettings.defaults(
                        stack.kafkaBootstrap(),
                        db,
                        Path.of("target/stack/streams-" + topic),
                        NoteSigner.generate("test.electoral-log.local"))
                .withTopics(topic, deadLetters)
                .withApplicationId("app-" + topic)
                .withBatch(500, Duration.ofMillis(50))
                .withOriginPrefix("test.electoral-log.local/")
                // the committed form's keys are made and opened with a key-encryption key of the test's own
                .withKeyEncryption(org.electorallog.statement.KeyEncryptionKeys.generate());
    }

    /** Creates a fresh database on the stack's server; returns its JDBC URL. */
    String createDatabase(String name) throws SQLException {
        try (Connection c = connect()) {
            c.createStatement().execute("CREATE DATABASE " + name);
        }
        return stack.database().onDatabase(name).jdbcUrl();
    }

    /**
     * Creates a fresh database, migrated, whose boards' records go into partitions of {@code
     * partitionWidth} IDs (decision 86), so that a test's boards span several; returns its JDBC URL.
     */
    String createDatabase(String name, long partitionWidth) throws SQLException {
        String url = createDatabase(name);
        DatabaseLogin db = stack.database();
        try (com.zaxxer.hikari.HikariDataSource ds =
                org.electorallog.store.ProjectionDatabase.pool(url, db.user(), db.password(), 2, "harness-" + name)) {
            org.electorallog.store.Migrations.apply(ds);
        }
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            c.createStatement().execute("UPDATE record_partitioning SET width = " + partitionWidth);
        }
        return url;
    }

    /** The end offset of every partition of the topic. */
    java.util.Map<Integer, Long> endOffsets() {
        java.util.Properties p = new java.util.Properties();
        p.put("bootstrap.servers", stack.kafkaBootstrap());
        try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> c =
                new org.apache.kafka.clients.consumer.KafkaConsumer<>(
                        p,
                        new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                        new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            java.util.List<org.apache.kafka.common.TopicPartition> tps = new java.util.ArrayList<>();
            c.partitionsFor(topic)
                    .forEach(pi -> tps.add(new org.apache.kafka.common.TopicPartition(topic, pi.partition())));
            java.util.Map<Integer, Long> out = new java.util.TreeMap<>();
            c.endOffsets(tps).forEach((tp, off) -> out.put(tp.partition(), off));
            return out;
        }
    }

    /** Waits until the projection in {@code jdbcUrl} has every partition's stored offset at the given end offsets. */
    void awaitProjected(String jdbcUrl, java.util.Map<Integer, Long> end, Duration timeout) throws Exception {
        DatabaseLogin db = stack.database();
        Poll.until(
                timeout,
                "every partition projected to " + end,
                () -> {
                    java.util.Map<Integer, Long> stored = new java.util.TreeMap<>();
                    try (Connection c = DriverManager.getConnection(jdbcUrl, db.user(), db.password());
                            PreparedStatement ps = c.prepareStatement(
                                    "SELECT partition, next_offset FROM partition_offsets WHERE topic = ?")) {
                        ps.setString(1, topic);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                stored.put(rs.getInt(1), rs.getLong(2));
                            }
                        } catch (SQLException e) {
                            // the schema may not exist yet in a fresh database
                        }
                    }
                    return stored;
                },
                stored -> end.entrySet().stream().allMatch(e -> stored.getOrDefault(e.getKey(), 0L) >= e.getValue()));
    }

    Connection connect() throws SQLException {
        DatabaseLogin db = stack.database();
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }

    static Statement statement(String board, String deliveryId, long ts) {
        return Statement.newBuilder()
                .setBoard(board)
                .setDeliveryId(deliveryId)
                .setKind(StatementKind.IDP_USER_EVENT)
                .setStatementTimestamp(ts)
                .setSenderName("test")
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                .setUserId("u-" + deliveryId)
                .build();
    }

    long size(String board) throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT s.size FROM board_state s JOIN boards b USING (board_id) WHERE b.name = ?")) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    long projectedOffset(int partition) throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT next_offset FROM partition_offsets WHERE topic = ? AND partition = ?")) {
            ps.setString(1, topic);
            ps.setInt(2, partition);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** Waits until PostgreSQL's stored offset of the partition reaches {@code offset} (everything before it projected). */
    void awaitOffset(int partition, long offset) throws Exception {
        Poll.until(
                Duration.ofSeconds(120),
                "partition " + partition + " projected to offset " + offset,
                () -> projectedOffset(partition),
                at -> at >= offset);
    }
}
