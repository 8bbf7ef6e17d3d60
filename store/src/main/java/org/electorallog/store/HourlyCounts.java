package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Table {@code hourly_counts} (V11): records per board, hour of statement time (UTC) and kind,
 * kept by the projector in the batch transaction and recounted by the audit.
 */
public final class HourlyCounts {
    /** Milliseconds in an hour. */
    private static final long HOUR = 3_600_000L;

    private HourlyCounts() {}

    /** One counter: the hour (epoch milliseconds, a multiple of an hour) and the kind code. */
    public record Key(long hourMillis, short kind) {}

    /** The key of a record with this statement time and kind (the hour is floored, also before 1970). */
    public static Key keyOf(long statementMillis, short kind) {
        return new Key(Math.floorDiv(statementMillis, HOUR) * HOUR, kind);
    }

    /** Adds the deltas to a board's hourly counts. */
    public static void add(Connection c, short boardId, Map<Key, Long> deltas) throws SQLException {
        int n = deltas.size();
        Timestamp[] hours = new Timestamp[n];
        Short[] kinds = new Short[n];
        Long[] counts = new Long[n];
        int i = 0;
        // in key order, like counters: a stable lock order
        for (Map.Entry<Key, Long> d : sorted(deltas).entrySet()) {
            hours[i] = new Timestamp(d.getKey().hourMillis());
            kinds[i] = d.getKey().kind();
            counts[i] = d.getValue();
            i++;
        }
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO hourly_counts (board_id, hour, kind, n) SELECT ?, u.hour, u.kind, u.n "
                        + "FROM unnest(?::timestamptz[], ?::smallint[], ?::bigint[]) AS u(hour, kind, n) "
                        + "ON CONFLICT (board_id, hour, kind) DO UPDATE SET n = hourly_counts.n + EXCLUDED.n")) {
            ps.setShort(1, boardId);
            ps.setArray(2, c.createArrayOf("timestamptz", hours));
            ps.setArray(3, c.createArrayOf("smallint", kinds));
            ps.setArray(4, c.createArrayOf("bigint", counts));
            ps.executeUpdate();
        }
    }

    private static Map<Key, Long> sorted(Map<Key, Long> deltas) {
        Map<Key, Long> out =
                new TreeMap<>(Comparator.comparingLong(Key::hourMillis).thenComparing(Key::kind));
        out.putAll(deltas);
        return out;
    }

    /** Every hourly count of a board. */
    public static Map<Key, Long> rows(Connection c, short boardId) throws SQLException {
        Map<Key, Long> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT hour, kind, n FROM hourly_counts WHERE board_id = ?")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(new Key(rs.getTimestamp(1).getTime(), rs.getShort(2)), rs.getLong(3));
                }
            }
        }
        return out;
    }
}
