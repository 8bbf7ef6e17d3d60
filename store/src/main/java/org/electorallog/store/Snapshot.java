package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A read-only REPEATABLE READ transaction over the projection: every read of one request (a proof,
 * a page, an audit) sees one snapshot, so a proof's tiles and checkpoint belong to one tree.
 */
public final class Snapshot {
    private Snapshot() {}

    /** Work done inside one snapshot. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** Runs {@code work} in a fresh snapshot on a connection of {@code db}, rolled back afterwards. */
    public static <T> T read(DataSource db, Work<T> work) throws SQLException {
        try (Connection c = db.getConnection()) {
            begin(c);
            try {
                return work.run(c);
            } finally {
                c.rollback();
            }
        }
    }

    /** Makes {@code c} a read-only REPEATABLE READ transaction (the caller rolls it back). */
    public static void begin(Connection c) throws SQLException {
        c.setAutoCommit(false);
        c.setReadOnly(true);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    }

    /** Exports the snapshot of {@code c} for other connections ({@code pg_export_snapshot}). */
    public static String export(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_export_snapshot()");
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("pg_export_snapshot() returned no row");
            }
            return rs.getString(1);
        }
    }

    /** Begins a read-only transaction on {@code c} in the exported snapshot of another connection. */
    public static void join(Connection c, String exported) throws SQLException {
        begin(c);
        if (!exported.matches("[0-9A-F-]+")) {
            throw new IllegalArgumentException("not an exported snapshot ID: " + exported);
        }
        try (PreparedStatement set = c.prepareStatement("SET TRANSACTION SNAPSHOT '" + exported + "'")) {
            set.execute();
        }
    }
}
