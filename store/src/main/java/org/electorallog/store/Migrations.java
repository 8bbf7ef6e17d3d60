package org.electorallog.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The projection's schema: the versioned SQL migrations in {@code db/migration} (this module's
 * resources, {@code V<n>__<what>.sql}, every table and index commented with the query it serves),
 * applied in order by Flyway, each in its own transaction, recorded in {@code flyway_schema_history}.
 * Concurrent starters serialize on Flyway's PostgreSQL advisory lock. A database whose schema is
 * newer than this build knows is refused, and so is a changed migration (checksums).
 *
 * <p>A database made by the hand-written runner this replaced (table {@code schema_migrations}) is
 * baselined at the version recorded there, so nothing is applied twice.
 */
public final class Migrations {
    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    /** The newest migration this build carries. Append a file and raise this together. */
    static final int LATEST = 24;

    private Migrations() {}

    public static int latestVersion() {
        return LATEST;
    }

    /** Brings the schema up to date; returns the version it is at. Flyway holds two connections of {@code ds} while it runs. */
    public static int apply(DataSource ds) {
        try (Connection c = ds.getConnection()) {
            ServerVersion.requireSupported(c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the PostgreSQL server's version: " + e.getMessage(), e);
        }
        Integer legacy = legacyVersion(ds);
        var config = Flyway.configure()
                .dataSource(ds)
                .locations("classpath:db/migration")
                .cleanDisabled(true)
                // a migration the database has and this build lacks (a newer schema) fails validation
                .ignoreMigrationPatterns("")
                .validateOnMigrate(true);
        if (legacy != null) {
            if (legacy > LATEST) {
                throw new IllegalStateException("the database schema is at version " + legacy
                        + " but this build knows only up to " + LATEST + ": run a newer build");
            }
            config = config.baselineOnMigrate(true)
                    .baselineVersion(MigrationVersion.fromVersion(String.valueOf(legacy)))
                    .baselineDescription("schema_migrations at " + legacy);
        }
        try {
            MigrateResult r = config.load().migrate();
            if (r.migrationsExecuted > 0) {
                LOG.info("applied {} migration(s); schema at version {}", r.migrationsExecuted, r.targetSchemaVersion);
            }
        } catch (FlywayException e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("not resolved locally") || m.contains("applied migration not resolved")) {
                throw new IllegalStateException(
                        "the database schema is newer than this build knows (up to version " + LATEST
                                + "): run a newer build (" + firstLine(m) + ")",
                        e);
            }
            throw new IllegalStateException("cannot migrate the database: " + firstLine(m), e);
        }
        return LATEST;
    }

    /**
     * The schema version the database is at, for a reader that does not migrate (the query API):
     * the newest successful migration in Flyway's history, else the hand-written runner's newest
     * (a database no Flyway-era projector has started yet), else 0 (an empty database). Either
     * table is read only after {@code to_regclass} finds it, so an empty database is not an error.
     */
    public static int appliedVersion(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            boolean flyway;
            boolean legacy;
            try (ResultSet rs = st.executeQuery(TABLES_SQL)) {
                if (!rs.next()) {
                    throw new SQLException("to_regclass answered no row");
                }
                legacy = rs.getBoolean(1);
                flyway = rs.getBoolean(2);
            }
            if (!flyway && !legacy) {
                return 0;
            }
            try (ResultSet rs = st.executeQuery(flyway ? FLYWAY_VERSION_SQL : LEGACY_VERSION_SQL)) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }

    /** Whether the hand-written runner's table and Flyway's history exist. */
    private static final String TABLES_SQL =
            "SELECT to_regclass('schema_migrations') IS NOT NULL, to_regclass('flyway_schema_history') IS NOT NULL";
    /** Flyway's newest successful versioned migration (the baseline row of an adopted database included). */
    private static final String FLYWAY_VERSION_SQL = "SELECT coalesce(max(CASE WHEN version ~ '^[0-9]+$' "
            + "THEN version::int END), 0) FROM flyway_schema_history WHERE success";
    /** The hand-written runner's newest version. */
    private static final String LEGACY_VERSION_SQL = "SELECT coalesce(max(version), 0) FROM schema_migrations";

    /** The version the hand-written runner recorded, when the database has its table and no Flyway history yet. */
    private static Integer legacyVersion(DataSource ds) {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(TABLES_SQL)) {
            if (!rs.next() || !rs.getBoolean(1) || rs.getBoolean(2)) {
                return null;
            }
            try (ResultSet v = st.executeQuery(LEGACY_VERSION_SQL)) {
                return v.next() ? v.getInt(1) : 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the database's schema version: " + e.getMessage(), e);
        }
    }

    private static String firstLine(String m) {
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
