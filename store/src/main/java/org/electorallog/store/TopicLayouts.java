package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** Table {@code topic_layout} (V6): the partition count each events topic had when its boards were projected. */
public final class TopicLayouts {
    private TopicLayouts() {}

    /** The recorded partition count of {@code topic}, its row locked until the transaction ends. */
    public static Optional<Integer> lockRecorded(Connection c, String topic) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT partitions FROM topic_layout WHERE topic = ? FOR UPDATE")) {
            ps.setString(1, topic);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getInt(1)) : Optional.empty();
            }
        }
    }

    /** Records the partition count of {@code topic}. */
    public static void record(Connection c, String topic, int partitions) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO topic_layout (topic, partitions) VALUES (?, ?) "
                + "ON CONFLICT (topic) DO UPDATE SET partitions = EXCLUDED.partitions")) {
            ps.setString(1, topic);
            ps.setInt(2, partitions);
            ps.executeUpdate();
        }
    }
}
