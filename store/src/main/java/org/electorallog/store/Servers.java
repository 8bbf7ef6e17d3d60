package org.electorallog.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.electorallog.config.DatabaseLogin;

/**
 * What the cluster rehearsal does to a PostgreSQL server itself rather than to the projection in
 * it (PostgreSQL manual, 26.3 "Making a Base Backup Using the Low Level API" and 27.2 "Log-Shipping
 * Standby Servers"): a database made, a base backup begun and ended, WAL positions compared,
 * a standby promoted. Each call on a connection of its own, closed before it returns (the backup's
 * is held until {@link BaseBackup#stop}). Failures are {@link ProjectionException}s.
 */
public final class Servers {
    private Servers() {}

    /** Makes database {@code name} on the server of {@code login} (a name of letters, digits and '_'). */
    public static void createDatabase(DatabaseLogin login, String name) {
        run(login, "creating database " + name, c -> {
            ServerStatistics.createDatabase(c, name);
            return null;
        });
    }

    /** The server's current WAL write position (a primary's {@code pg_current_wal_lsn}). */
    public static String currentWalPosition(DatabaseLogin primary) {
        return run(primary, "reading the WAL position", c -> one(c, "SELECT pg_current_wal_lsn()::text"));
    }

    /** Bytes of WAL up to {@code position} that the standby of {@code standby} has not replayed. */
    public static long replayLagBytes(DatabaseLogin standby, String position) {
        if (!position.matches("[0-9A-F]+/[0-9A-F]+")) {
            throw new IllegalArgumentException("not a WAL position: " + position);
        }
        return run(
                standby,
                "reading the standby's replay position",
                c -> Long.parseLong(one(
                        c,
                        "SELECT pg_wal_lsn_diff('" + position
                                + "', coalesce(pg_last_wal_replay_lsn(), '0/0'))::bigint::text")));
    }

    /** The events a projection has projected: its stored next offsets summed over partitions. */
    public static long projectedEvents(DatabaseLogin login) {
        return run(
                login,
                "reading the stored offsets",
                c -> Long.parseLong(one(c, "SELECT coalesce(sum(next_offset), 0)::text FROM partition_offsets")));
    }

    /** Promotes the standby of {@code standby} ({@code pg_promote}, waiting up to 60 s); whether it finished. */
    public static boolean promote(DatabaseLogin standby) {
        return run(standby, "promoting the standby", c -> {
            try (Statement st = c.createStatement();
                    ResultSet r = st.executeQuery("SELECT pg_promote(true, 60)")) {
                return r.next() && r.getBoolean(1);
            }
        });
    }

    /**
     * Begins a base backup of the server of {@code primary} with physical replication slot {@code
     * slot} (which keeps every WAL segment from the backup's start until the standby has it).
     */
    public static BaseBackup startBaseBackup(DatabaseLogin primary, String slot) {
        if (!slot.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("not a replication slot name: " + slot);
        }
        return ProjectionException.wrap("beginning a base backup", () -> {
            Connection c = connect(primary);
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_create_physical_replication_slot('" + slot + "', true)");
                s.execute("SELECT pg_backup_start('standby', true)");
                return new BaseBackup(c);
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
        });
    }

    /** A base backup in progress: its session must stay open until {@link #stop}. */
    public static final class BaseBackup implements AutoCloseable {
        private final Connection c;

        private BaseBackup(Connection c) {
            this.c = c;
        }

        /** The backup's label file and tablespace map ({@code pg_backup_stop}), to write into the copy. */
        public record Labels(String label, String tablespaceMap) {}

        /** Ends the backup; what the copy needs beside the data directory. */
        public Labels stop() {
            return ProjectionException.wrap("ending the base backup", () -> {
                try (Statement s = c.createStatement();
                        ResultSet r = s.executeQuery("SELECT labelfile, spcmapfile FROM pg_backup_stop(false)")) {
                    if (!r.next()) {
                        throw new IllegalStateException("pg_backup_stop returned no row");
                    }
                    return new Labels(r.getString(1), r.getString(2));
                }
            });
        }

        @Override
        public void close() {
            ProjectionException.wrap("closing the base backup's session", () -> {
                c.close();
                return null;
            });
        }
    }

    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private static <T> T run(DatabaseLogin login, String what, Work<T> work) {
        return ProjectionException.wrap(what, () -> {
            try (Connection c = connect(login)) {
                return work.run(c);
            }
        });
    }

    private static Connection connect(DatabaseLogin login) throws SQLException {
        return DriverManager.getConnection(login.jdbcUrl(), login.user(), login.password());
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            if (!r.next()) {
                throw new IllegalStateException("no row from: " + sql);
            }
            return r.getString(1);
        }
    }
}
