package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Table {@code counters} (V1, V5): per-board counts by {@link CounterKey}, kept in the batch transaction. */
public final class Counters {
    /** One counter (counters_pkey). */
    public static final String ONE_SQL = "SELECT n FROM counters WHERE board_id = ? AND kind = ? AND election_id = ?";

    private Counters() {}

    /** A counter row as stored; the audit checks that its key is one the projector keeps. */
    public record Row(short kind, String electionId, long n) {}

    /** Adds the deltas to a board's counters. */
    public static void add(Connection c, short boardId, Map<CounterKey, Long> deltas) throws SQLException {
        int n = deltas.size();
        Short[] kinds = new Short[n];
        String[] elections = new String[n];
        Long[] counts = new Long[n];
        int i = 0;
        for (Map.Entry<CounterKey, Long> d : deltas.entrySet()) {
            kinds[i] = d.getKey().kind();
            elections[i] = d.getKey().electionId();
            counts[i] = d.getValue();
            i++;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO counters (board_id, kind, election_id, n) SELECT ?, u.kind, u.election_id, u.n "
                        + "FROM unnest(?::smallint[], ?::text[], ?::bigint[]) AS u(kind, election_id, n) "
                        + "ON CONFLICT (board_id, kind, election_id) DO UPDATE SET n = counters.n + EXCLUDED.n")) {
            ps.setShort(1, boardId);
            ps.setArray(2, c.createArrayOf("smallint", kinds));
            ps.setArray(3, c.createArrayOf("text", elections));
            ps.setArray(4, c.createArrayOf("bigint", counts));
            ps.executeUpdate();
        }
    }

    /** Every counter row of a board. */
    public static List<Row> rows(Connection c, short boardId) throws SQLException {
        List<Row> out = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT kind, election_id, n FROM counters WHERE board_id = ?")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Row(rs.getShort(1), rs.getString(2), rs.getLong(3)));
                }
            }
        }
        return out;
    }

    /** The sum of the given counters of a board (a missing counter is 0). */
    public static long sum(Connection c, short boardId, List<CounterKey> keys) throws SQLException {
        long n = 0;
        try (PreparedStatement ps = c.prepareStatement(ONE_SQL)) {
            for (CounterKey k : keys) {
                ps.setShort(1, boardId);
                ps.setShort(2, k.kind());
                ps.setString(3, k.electionId());
                try (ResultSet rs = ps.executeQuery()) {
                    n += rs.next() ? rs.getLong(1) : 0;
                }
            }
        }
        return n;
    }
}
