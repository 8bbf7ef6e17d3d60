package org.electorallog.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Connections to the projection's PostgreSQL: the connection pool every process opens, a
 * connection holding an advisory lock (one projector process runs the witnessing loop), and what
 * the server says about its shared memory (huge pages, decision 82).
 */
public final class ProjectionDatabase {
    private ProjectionDatabase() {}

    public static HikariDataSource pool(String jdbcUrl, String user, String password, int size, String name) {
        HikariConfig hc = config(jdbcUrl, user, password, size, name);
        hc.setConnectionTimeout(30_000);
        hc.addDataSourceProperty("reWriteBatchedInserts", "true");
        hc.addDataSourceProperty("tcpKeepAlive", "true");
        return new HikariDataSource(hc);
    }

    /** A pool's login, size (at least one connection kept open) and name: what every pool here starts from. */
    static HikariConfig config(String jdbcUrl, String user, String password, int size, String name) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(jdbcUrl);
        hc.setUsername(user);
        hc.setPassword(password);
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(1);
        hc.setPoolName(name);
        return hc;
    }

    /**
     * Whether the server's shared memory is in huge pages: {@code huge_pages_status} (PostgreSQL
     * 17+), "on" or "off"; "unknown" before the server has started, and on PostgreSQL 15 and 16,
     * which do not say. Decision 82: without them, each new connection's backend takes a page fault
     * for every 4 KB of shared buffers it first touches, so a newly started projector's first
     * batches are slower than its later ones.
     */
    public static String hugePagesStatus(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                // missing_ok: NULL, not an error, where the setting does not exist
                ResultSet rs = st.executeQuery("SELECT current_setting('huge_pages_status', true)")) {
            String status = rs.next() ? rs.getString(1) : null;
            return status == null ? "unknown" : status;
        }
    }

    /**
     * Null when the database commits on a synchronous standby (so an erasure committed here is on
     * the standby too), else what it has instead: no synchronous standby configured, none connected,
     * or commits that do not wait for it (docs/operations.md "The key store's standby").
     */
    public static String synchronousStandby(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT current_setting('synchronous_standby_names'), "
                        + "current_setting('synchronous_commit'), (SELECT count(*) FROM pg_stat_replication "
                        + "WHERE sync_state IN ('sync', 'quorum'))")) {
            if (!rs.next()) {
                return "no answer about its standbys";
            }
            if (rs.getString(1).isBlank()) {
                return "no synchronous standby (synchronous_standby_names is empty)";
            }
            if (rs.getString(2).equals("off") || rs.getString(2).equals("local")) {
                return "commits that do not wait for its standby (synchronous_commit = " + rs.getString(2) + ")";
            }
            if (rs.getLong(3) == 0) {
                return "no synchronous standby connected (or this login may not see pg_stat_replication)";
            }
            return null;
        }
    }

    /**
     * A connection of its own (outside any pool) holding the session-level advisory lock
     * {@code key}, or null when another session holds it. Closing the connection releases the lock,
     * so a process that dies loses it at once.
     */
    public static Connection advisoryLock(String jdbcUrl, String user, String password, long key) throws SQLException {
        Connection c = DriverManager.getConnection(jdbcUrl, user, password);
        try {
            if (tryAdvisoryLock(c, key)) {
                return c;
            }
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        c.close();
        return null;
    }

    /**
     * Whether the session of {@code c} holds the session-level advisory lock {@code key} (taken now
     * when free; a session that holds it already holds it once more, released with the session).
     */
    public static boolean tryAdvisoryLock(Connection c, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
