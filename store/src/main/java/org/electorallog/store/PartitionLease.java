package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * A task's hold on one partition of the events topic (table {@code partition_offsets}, V1): the next
 * offset to project and an epoch bumped by each task that takes the partition. Every batch moves the
 * offset by compare-and-set on (epoch, expected offset), so a task that lost the partition (a zombie)
 * can never commit: PostgreSQL, not Kafka, owns the projection's offsets.
 *
 * @param topic      the events topic
 * @param partition  the partition
 * @param nextOffset the next offset to project when the lease was taken
 * @param epoch      the epoch this task holds
 */
public record PartitionLease(String topic, int partition, long nextOffset, long epoch) {
    /** Takes the partition for a new task: creates its offset row if needed and bumps its epoch. */
    public static PartitionLease acquire(Connection c, String topic, int partition) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO partition_offsets (topic, partition, next_offset, epoch) VALUES (?, ?, 0, 1) "
                        + "ON CONFLICT (topic, partition) DO UPDATE SET epoch = partition_offsets.epoch + 1 "
                        + "RETURNING next_offset, epoch")) {
            ps.setString(1, topic);
            ps.setInt(2, partition);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("partition_offsets returned no row for " + topic + "-" + partition);
                }
                return new PartitionLease(topic, partition, rs.getLong(1), rs.getLong(2));
            }
        }
    }

    /** Whether this lease's epoch still holds the partition (read in the caller's transaction). */
    public boolean held(Connection c) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT epoch FROM partition_offsets WHERE topic = ? AND partition = ?")) {
            ps.setString(1, topic);
            ps.setInt(2, partition);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) == epoch;
            }
        }
    }

    /**
     * Moves the partition's next offset from {@code expected} to {@code next} if this lease still holds
     * it at {@code expected}; false when another task took it (the caller rolls back).
     */
    public boolean advance(Connection c, long expected, long next) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE partition_offsets SET next_offset = ? WHERE topic = ? AND partition = ? AND epoch = ? AND next_offset = ?")) {
            ps.setLong(1, next);
            ps.setString(2, topic);
            ps.setInt(3, partition);
            ps.setLong(4, epoch);
            ps.setLong(5, expected);
            return ps.executeUpdate() == 1;
        }
    }

    /** The stored next offset of every partition of {@code topic} (empty for an unmigrated database). */
    public static Map<Integer, Long> nextOffsets(DataSource db, String topic) throws SQLException {
        Map<Integer, Long> out = new TreeMap<>();
        try (Connection c = db.getConnection()) {
            try (PreparedStatement ps =
                            c.prepareStatement("SELECT to_regclass('public.partition_offsets') IS NOT NULL");
                    ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    return out;
                }
            }
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT partition, next_offset FROM partition_offsets WHERE topic = ?")) {
                ps.setString(1, topic);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getInt(1), rs.getLong(2));
                    }
                }
            }
        }
        return out;
    }

    /** Whether any event of {@code topic} was projected. */
    public static boolean anyProjected(Connection c, String topic) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT EXISTS (SELECT 1 FROM partition_offsets WHERE topic = ? AND next_offset > 0)")) {
            ps.setString(1, topic);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
