package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the PostgreSQL server says of itself, for the load-test harness's results and an operator's
 * checks: its version, its checkpoint and WAL counters, and the maintenance a measurement runs
 * before it starts (VACUUM ANALYZE, a scratch database made and dropped).
 */
public final class ServerStatistics {
    private ServerStatistics() {}

    /** The tables whose statistics a measurement settles first. */
    private static final Set<String> VACUUMED = Set.of("records", "tiles");

    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    /** {@code SHOW server_version}. */
    public static String serverVersion(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW server_version")) {
            return rs.next() ? rs.getString(1) : "unknown";
        }
    }

    /**
     * The checkpoint counters so far ({@code pg_stat_checkpointer}, PostgreSQL 17 and later): timed
     * and requested checkpoints, buffers written, write and sync time in milliseconds; empty on an
     * older server.
     */
    public static Map<String, Long> checkpointer(Connection c) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT num_timed, num_requested, buffers_written,"
                        + " write_time::bigint, sync_time::bigint FROM pg_stat_checkpointer");
                ResultSet rs = ps.executeQuery()) {
            firstRow(rs, out, "timed", "requested", "buffers_written", "write_ms", "sync_ms");
        } catch (SQLException e) {
            if (!"42P01".equals(e.getSQLState())) { // undefined_table: PostgreSQL 16 or older
                throw e;
            }
            out.clear();
        }
        return out;
    }

    /**
     * The WAL counters so far ({@code pg_stat_wal}, PostgreSQL 14 and later): records, full-page
     * images among them, bytes, and writes forced by full WAL buffers.
     */
    public static Map<String, Long> wal(Connection c) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                        "SELECT wal_records, wal_fpi, wal_bytes::bigint, wal_buffers_full FROM pg_stat_wal");
                ResultSet rs = ps.executeQuery()) {
            firstRow(rs, out, "records", "full_page_images", "bytes", "buffers_full");
        }
        return out;
    }

    /** The first row's columns, in order, under {@code names}. */
    private static void firstRow(ResultSet rs, Map<String, Long> out, String... names) throws SQLException {
        if (rs.next()) {
            for (int i = 0; i < names.length; i++) {
                out.put(names[i], rs.getLong(i + 1));
            }
        }
    }

    /** {@code VACUUM (ANALYZE)} of {@code records} or {@code tiles}, on an autocommit connection. */
    public static void vacuumAnalyze(Connection c, String table) throws SQLException {
        if (!VACUUMED.contains(table)) {
            throw new IllegalArgumentException("vacuumAnalyze takes one of " + VACUUMED + ", got " + table);
        }
        try (Statement st = c.createStatement()) {
            st.execute("VACUUM (ANALYZE) " + table);
        }
    }

    /** Makes an empty database {@code name} (lower-case letters, digits and '_') on the connection's server. */
    public static void createDatabase(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + checkedName(name));
        }
    }

    /** Drops database {@code name}, closing its sessions. */
    public static void dropDatabase(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("DROP DATABASE " + checkedName(name) + " WITH (FORCE)");
        }
    }

    private static String checkedName(String name) {
        if (!DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a database name this takes: " + name);
        }
        return name;
    }
}
