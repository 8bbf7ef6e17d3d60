package org.electorallog.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.statement.DataKeys;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.statement.SealingKeys;

/**
 * The projection's database as one login sees it: a connection pool opened here and the typed
 * objects over it, so that no caller outside this module holds a connection, opens or ends a
 * transaction or names {@code java.sql} (issue 62; decisions 96, 98 and 133): reads in one
 * snapshot ({@link #read}, {@link #statement} give a {@link LogReader}; {@link #readIn} joins an
 * exported one), writes in one transaction the store commits or rolls back ({@link #commit},
 * {@link #decide}, {@link #rollBack}, {@link #autocommit} give a {@link LogWriter}), exports
 * ({@link #export}), the sender registry ({@link #registry}), key custody and erasure ({@link
 * #keyCustody}), advisory locks ({@link #lock}, {@link #sessionLock}), rebuild's steps and the
 * server under it ({@link #server}). Modelled on Tessera's storage drivers: one object per backend
 * owns its SQL and its transactions. Failures are {@link ProjectionException}s.
 */
public final class Projection implements AutoCloseable {
    private final DataSource db;
    private final HikariDataSource owned;

    private Projection(DataSource db, HikariDataSource owned) {
        this.db = db;
        this.owned = owned;
    }

    /**
     * A pool of {@code size} read-write connections of {@code login} named {@code name} (in
     * pg_stat_activity too): a process's writes and its reads of more than one statement.
     */
    public static Projection open(DatabaseLogin login, int size, String name) {
        HikariDataSource ds = ProjectionDatabase.pool(login.jdbcUrl(), login.user(), login.password(), size, name);
        return new Projection(ds, ds);
    }

    /**
     * {@link #open}, but making no connection until one is needed: a process starts even when the
     * login does not exist yet (the query API's registrar login); a use then fails, saying why.
     */
    public static Projection openOnDemand(DatabaseLogin login, int size, String name) {
        HikariConfig hc = ProjectionDatabase.config(login.jdbcUrl(), login.user(), login.password(), size, name);
        hc.setMinimumIdle(0);
        hc.setInitializationFailTimeout(-1);
        HikariDataSource ds = new HikariDataSource(hc);
        return new Projection(ds, ds);
    }

    /**
     * A pool of read-only REPEATABLE READ connections (a snapshot begins without a round trip,
     * decision 62) with a 60 s statement timeout, named {@code name} in pg_stat_activity too;
     * {@code customPlans}: every statement planned for its own parameters (decision 20: a generic
     * plan for "kind = $1" could walk the primary key for a rare kind), else cached plans (index
     * probes by key: proofs, checkpoints, tiles, decision 71).
     */
    public static Projection openSnapshots(DatabaseLogin login, int size, String name, boolean customPlans) {
        HikariConfig hc = ProjectionDatabase.config(login.jdbcUrl(), login.user(), login.password(), size, name);
        hc.addDataSourceProperty("ApplicationName", name);
        Snapshot.pool(hc);
        hc.addDataSourceProperty(
                "options", (customPlans ? "-c plan_cache_mode=force_custom_plan " : "") + "-c statement_timeout=60000");
        HikariDataSource ds = new HikariDataSource(hc);
        return new Projection(ds, ds);
    }

    /** The objects of this class over a pool a test opened and closes. */
    public static Projection over(DataSource db) {
        return new Projection(db, null);
    }

    /** What a caller reads in one snapshot. */
    @FunctionalInterface
    public interface Reading<T> {
        T run(LogReader reader);
    }

    /**
     * Runs {@code work} in one read-only REPEATABLE READ snapshot ({@link Snapshot#read}): every
     * read sees one state, so a proof's tiles and its checkpoint belong to one tree.
     */
    public <T> T read(Reading<T> work) {
        return ProjectionException.wrap(
                "reading the projection", () -> Snapshot.read(db, c -> work.run(new LogReader(c))));
    }

    /**
     * Runs {@code work}, which reads with one statement, autocommitted ({@link Snapshot#statement}):
     * its own snapshot, one round trip fewer than {@link #read}.
     */
    public <T> T statement(Reading<T> work) {
        return ProjectionException.wrap("reading the projection", () -> Snapshot.statement(db, c -> run(work, c)));
    }

    /**
     * Runs {@code work} on a connection of its own that joins the snapshot another reader exported
     * ({@link LogReader#exportSnapshot}): the audit reads its pages there, one ahead of its checks.
     */
    public <T> T readIn(String exported, Reading<T> work) {
        return ProjectionException.wrap("reading in an exported snapshot", () -> {
            try (Connection c = db.getConnection()) {
                Snapshot.join(c, exported);
                try {
                    return run(work, c);
                } finally {
                    c.rollback();
                }
            }
        });
    }

    private static <T> T run(Reading<T> work, Connection c) throws SQLException {
        LogReader reader = new LogReader(c);
        try {
            return work.run(reader);
        } finally {
            reader.close();
        }
    }

    /** What a caller writes in one transaction. */
    @FunctionalInterface
    public interface Writing<T> {
        T run(LogWriter writer);
    }

    /** What a caller writes in one transaction, and whether it is kept. */
    @FunctionalInterface
    public interface Choosing<T> {
        Transactions.Decision<T> run(LogWriter writer);
    }

    /** Runs {@code work} in one transaction and commits it; rolls it back when {@code work} throws. */
    public <T> T commit(Writing<T> work) {
        return ProjectionException.wrap(
                "writing the projection", () -> new Transactions(db).commit(c -> work.run(new LogWriter(c))));
    }

    /** Runs {@code work} in one transaction and always rolls it back (a rehearsal that keeps nothing). */
    public <T> T rollBack(Writing<T> work) {
        return ProjectionException.wrap(
                "rehearsing a write", () -> new Transactions(db).rollBack(c -> work.run(new LogWriter(c))));
    }

    /**
     * Runs {@code choice} in one transaction, then commits or rolls back as it decided ({@link
     * Transactions#decide}); when it or the commit throws, the transaction is rolled back.
     */
    public <T> Transactions.Outcome<T> decide(Choosing<T> choice) {
        return ProjectionException.wrap(
                "writing the projection", () -> new Transactions(db).decide(c -> choice.run(new LogWriter(c))));
    }

    /** Runs {@code work} in autocommit: each statement its own transaction. */
    public <T> T autocommit(Writing<T> work) {
        return ProjectionException.wrap(
                "writing the projection", () -> new Transactions(db).autocommit(c -> work.run(new LogWriter(c))));
    }

    /**
     * Streams records [0, size) of board {@code boardId} in ID order with their leaf hashes,
     * {@code batch} per query on a connection each ({@link RecordExports#export}).
     */
    public <E extends Exception> void export(
            short boardId,
            String board,
            long size,
            int batch,
            RecordExports.ExportShape shape,
            RecordExports.RecordSink<E> sink)
            throws E {
        try {
            RecordExports.export(db, boardId, board, size, batch, shape, sink);
        } catch (SQLException e) {
            throw new ProjectionException("exporting board " + board, e);
        }
    }

    /** The sender registry's admin operations, each in a transaction of its own. */
    public Registry registry() {
        return new Registry(db);
    }

    /** The operator's key custody and erasure, each operation in a transaction of its own. */
    public KeyCustody keyCustody() {
        return new KeyCustody(db);
    }

    /**
     * Brings the schema to this build's version ({@link Migrations#apply}); the version it is at.
     * The projector does it when it starts; {@code rebuild} into its empty target.
     */
    public int migrate() {
        return Migrations.apply(db);
    }

    /** Whether the projection holds any board (a rebuild's target must hold none). */
    public boolean anyBoard() {
        return ProjectionException.wrap("looking for boards", () -> Boards.any(db));
    }

    /**
     * Copies the key store of the committed form from {@code live} into this (empty) projection
     * ({@link KeyStoreCopy#copy}): the data keys are not in the topic; how many it copied.
     */
    public int copyKeysFrom(Projection live) {
        return ProjectionException.wrap("copying the key store", () -> KeyStoreCopy.copy(live.db, db));
    }

    /**
     * What {@code live} erased that this rebuilt projection has not (an erasure made during the
     * replay, {@link KeyStoreCopy#missedErasures}), one line each.
     */
    public List<String> missedErasuresOf(Projection live) {
        return ProjectionException.wrap("comparing erasures", () -> KeyStoreCopy.missedErasures(live.db, db));
    }

    /**
     * Where this projection, rebuilt by a replay, differs from {@code live} board by board
     * (invariant 2, {@link ProjectionComparison#compareWithReplay}), one line each; empty when equal.
     */
    public List<String> differencesFrom(Projection live) {
        return ProjectionException.wrap(
                "comparing projections", () -> ProjectionComparison.compareWithReplay(live.db, db));
    }

    /**
     * The public halves of the boards' day keys, as a producer's own login asks for them ({@link
     * SqlSealingKeys}: the committed form's sealing keys).
     */
    public SealingKeys sealingKeys() {
        return new SqlSealingKeys(db);
    }

    /** The names of the projection's boards, in name order. */
    public List<String> boardNames() {
        return ProjectionException.wrap("listing boards", () -> Boards.names(db));
    }

    /**
     * A connection of this pool kept for the session-level advisory lock {@code key} ({@link
     * AdvisoryLock#held} takes it when free); closing the lock gives the connection back, and with
     * it the lock.
     */
    public AdvisoryLock lock(long key) {
        return ProjectionException.wrap(
                "taking a connection for an advisory lock", () -> new AdvisoryLock(db.getConnection(), key));
    }

    /** A session-level advisory lock on a connection of its own. */
    public static final class AdvisoryLock implements AutoCloseable {
        private final Connection c;
        private final long key;

        private AdvisoryLock(Connection c, long key) {
            this.c = c;
            this.key = key;
        }

        /** Whether the lock's session still answers within {@code seconds}. */
        public boolean valid(int seconds) {
            try {
                return c.isValid(seconds);
            } catch (SQLException e) {
                return false;
            }
        }

        /**
         * Whether this session holds the lock, taken now when free (a session that holds it
         * already holds it once more, all released with the session).
         */
        public boolean held() {
            return ProjectionException.wrap(
                    "taking an advisory lock", () -> ProjectionDatabase.tryAdvisoryLock(c, key));
        }

        @Override
        public void close() {
            ProjectionException.wrap("closing an advisory lock's session", () -> {
                c.close();
                return null;
            });
        }
    }

    /**
     * A connection of its own (outside any pool) holding the session-level advisory lock {@code
     * key}, or null when another session holds it; closing it releases the lock, and a process that
     * dies loses it at once ({@link ProjectionDatabase#advisoryLock}).
     */
    public static AdvisoryLock sessionLock(DatabaseLogin login, long key) {
        return ProjectionException.wrap("taking an advisory lock", () -> {
            Connection c = ProjectionDatabase.advisoryLock(login.jdbcUrl(), login.user(), login.password(), key);
            return c == null ? null : new AdvisoryLock(c, key);
        });
    }

    /**
     * The data keys of the committed form as the projector opens them, unwrapped with {@code keks}
     * ({@link SqlDataKeys}).
     */
    public DataKeys dataKeys(KeyEncryptionKeys keks) {
        return new SqlDataKeys(db, keks);
    }

    /** The projector's maker of the boards' day keys, wrapped under {@code keks} ({@link KeyMaker}). */
    public KeyMaker keyMaker(KeyEncryptionKeys keks) {
        return new KeyMaker(db, keks);
    }

    /** Each partition's stored next offset of {@code topic} (a replay's end check). */
    public Map<Integer, Long> nextOffsets(String topic) {
        return ProjectionException.wrap("reading the stored offsets", () -> PartitionLease.nextOffsets(db, topic));
    }

    /** The server under this projection: its version, counters, huge pages, standby, databases. */
    public DatabaseServer server() {
        return new DatabaseServer(db);
    }

    /** Whether a connection answers within {@code seconds} (readiness). */
    public boolean reachable(int seconds) {
        try (Connection c = db.getConnection()) {
            return c.isValid(seconds);
        } catch (SQLException e) {
            return false;
        }
    }

    /** Every board's latest checkpoint size and age ({@link Boards#HEADS_SQL}), for the metrics. */
    public List<Boards.Head> heads() {
        return ProjectionException.wrap("reading the boards' heads", () -> Boards.heads(db));
    }

    /**
     * Reports the pool's gauges and timers to {@code meterRegistry} (a Micrometer registry, which
     * HikariCP takes as it is), before the pool's first connection.
     */
    public void reportTo(Object meterRegistry) {
        if (owned != null) {
            owned.setMetricRegistry(meterRegistry);
        }
    }

    /** Drops the pool's connections, each as soon as it is idle (after PostgreSQL restarted). */
    public void reconnect() {
        if (owned != null) {
            owned.getHikariPoolMXBean().softEvictConnections();
        }
    }

    /**
     * The pool under these objects, for tests, which arrange and inspect the database with JDBC (the
     * build keeps every main class outside this module from naming it).
     */
    public DataSource dataSource() {
        return db;
    }

    /** Closes the pool when this projection opened it. */
    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }
}
