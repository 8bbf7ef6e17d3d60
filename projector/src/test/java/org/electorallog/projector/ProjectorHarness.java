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
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.DatabaseAddress;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.EventsTopic;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;

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
        DatabaseAddress db = stack.database();
        settings = new ProjectorSettings(stack.kafkaBootstrap(), topic, deadLetters, "app-" + topic,
                Path.of("target/stack/streams-" + topic), db.jdbcUrl(), db.user(), db.password(), 500,
                Duration.ofMillis(50), NoteSigner.generate("test.electoral-log.local"), "test.electoral-log.local/", 1);
    }

    Connection connect() throws SQLException {
        DatabaseAddress db = stack.database();
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }

    static Statement statement(String board, String deliveryId, long ts) {
        return Statement.newBuilder().setBoard(board).setDeliveryId(deliveryId).setKind(StatementKind.IDP_USER_EVENT)
                .setStatementTimestamp(ts).setSenderName("test").setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                .setUserId("u-" + deliveryId).build();
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
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (projectedOffset(partition) < offset) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("partition " + partition + " not projected to offset " + offset
                        + " in 120 s (at " + projectedOffset(partition) + ")");
            }
            Thread.sleep(20); // poll interval; the stored offset is the condition
        }
    }
}
