package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/**
 * A statement built for one request, with its parameters in order (text arrays as {@code String[]}, times as {@link Instant}).
 * Only code of this module builds the text; callers' values go in as parameters, never into it.
 */
public record BoundStatement(String text, List<Object> params) {
    /** Prepares {@code prefix + text} (prefix: "" or an EXPLAIN) with the parameters bound. */
    public PreparedStatement prepare(Connection c, String prefix) throws SQLException {
        PreparedStatement ps = c.prepareStatement(prefix + text);
        int i = 1;
        for (Object p : params) {
            if (p instanceof String[] a) {
                ps.setArray(i++, c.createArrayOf("text", a));
            } else if (p instanceof Instant t) {
                ps.setTimestamp(i++, Timestamp.from(t)); // the driver's setObject takes no Instant
            } else {
                ps.setObject(i++, p);
            }
        }
        return ps;
    }

    /** EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of this statement, run in the caller's transaction. */
    public String explain(Connection c) throws SQLException {
        try (PreparedStatement ps = prepare(c, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ");
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("EXPLAIN returned no plan");
            }
            return rs.getString(1);
        }
    }

    /** The single number a count statement returns. */
    public long count(Connection c) throws SQLException {
        try (PreparedStatement ps = prepare(c, "");
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("a count returned no row");
            }
            return rs.getLong(1);
        }
    }
}
