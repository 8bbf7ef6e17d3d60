package org.electorallog.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
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

    /**
     * Runs {@code work} in a fresh snapshot on a connection of {@code db}, rolled back afterwards. On
     * a pool whose connections are REPEATABLE READ already ({@link #repeatableRead}) the isolation is
     * not set again: pgjdbc sends a {@code SET SESSION CHARACTERISTICS} for every
     * {@code setTransactionIsolation} and HikariCP another to reset it when the connection returns,
     * two round trips of a request that is otherwise two or three (a proof, issue 17).
     */
    public static <T> T read(DataSource db, Work<T> work) throws SQLException {
        boolean preset = repeatableRead(db);
        try (Connection c = db.getConnection()) {
            if (preset) {
                c.setAutoCommit(false);
                c.setReadOnly(true);
            } else {
                begin(c);
            }
            try {
                return work.run(c);
            } finally {
                c.rollback();
            }
        }
    }

    /**
     * Runs {@code work}, which reads with one statement, on an autocommitted connection of
     * {@code db}: a single statement is its own snapshot, so there is no transaction to begin or
     * roll back, one round trip fewer than {@link #read} (issue 17). Work of more than one statement
     * that must see one snapshot belongs in {@link #read}.
     */
    public static <T> T statement(DataSource db, Work<T> work) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(true);
            return work.run(c);
        }
    }

    /** Whether {@code db} is a HikariCP pool that gives every connection REPEATABLE READ (see {@link #pool}). */
    static boolean repeatableRead(DataSource db) {
        return db instanceof HikariDataSource h && REPEATABLE_READ.equals(h.getTransactionIsolation());
    }

    private static final String REPEATABLE_READ = "TRANSACTION_REPEATABLE_READ";

    /**
     * Makes {@code config} a pool of snapshot readers: read-only connections set to REPEATABLE READ
     * once, when opened, so {@link #read} needs no round trip to begin a snapshot. Single statements
     * outside {@link #read} are unaffected (each autocommitted statement is its own snapshot).
     */
    public static HikariConfig pool(HikariConfig config) {
        config.setReadOnly(true);
        config.setTransactionIsolation(REPEATABLE_READ);
        return config;
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
