package org.electorallog.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The PostgreSQL server under a {@link Projection}, rather than the projection in it: its version,
 * checkpoint and WAL counters, VACUUM, databases made and dropped, bytes a record takes, huge
 * pages and synchronous standby ({@link ServerStatistics}, {@link StorageReport}, {@link
 * ProjectionDatabase}). What perf measures and the projector reports at its start. Each call on a
 * connection of its own; failures are {@link ProjectionException}s.
 */
public final class DatabaseServer {
    private final DataSource db;

    DatabaseServer(DataSource db) {
        this.db = db;
    }

    /** The server's version ({@code server_version}). */
    public String serverVersion() {
        return onConnection("reading the server's version", ServerStatistics::serverVersion);
    }

    /** The server's checkpoint counters so far ({@code pg_stat_checkpointer}; empty before PostgreSQL 17). */
    public Map<String, Long> checkpointer() {
        return onConnection("reading pg_stat_checkpointer", ServerStatistics::checkpointer);
    }

    /** The server's WAL counters so far ({@code pg_stat_wal}). */
    public Map<String, Long> wal() {
        return onConnection("reading pg_stat_wal", ServerStatistics::wal);
    }

    /** VACUUM (ANALYZE) of {@code table} (records or tiles), what autovacuum does after a large insert. */
    public void vacuumAnalyze(String table) {
        onConnection("vacuuming " + table, c -> {
            c.setAutoCommit(true);
            ServerStatistics.vacuumAnalyze(c, table);
            return null;
        });
    }

    /** Makes an empty database {@code name} on this projection's server. */
    public void createDatabase(String name) {
        onConnection("creating database " + name, c -> {
            ServerStatistics.createDatabase(c, name);
            return null;
        });
    }

    /** Drops database {@code name} on this projection's server, closing its sessions. */
    public void dropDatabase(String name) {
        onConnection("dropping database " + name, c -> {
            ServerStatistics.dropDatabase(c, name);
            return null;
        });
    }

    /** Bytes a record takes, table by table (brief section 5). */
    public StorageReport storageReport() {
        return ProjectionException.wrap("measuring the storage", () -> StorageReport.measure(db));
    }

    /**
     * Null when the database commits on a synchronous standby, else what it has instead ({@link
     * ProjectionDatabase#synchronousStandby}).
     */
    public String synchronousStandby() {
        return onConnection("asking about the standby", ProjectionDatabase::synchronousStandby);
    }

    /** Whether the server's shared memory is in huge pages ({@link ProjectionDatabase#hugePagesStatus}). */
    public String hugePagesStatus() {
        return onConnection("asking about huge pages", ProjectionDatabase::hugePagesStatus);
    }

    private interface OnConnection<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T onConnection(String what, OnConnection<T> work) {
        return ProjectionException.wrap(what, () -> {
            try (Connection c = db.getConnection()) {
                return work.run(c);
            }
        });
    }
}
