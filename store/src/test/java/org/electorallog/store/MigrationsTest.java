package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/** The projection's schema through Flyway: fresh, repeated, concurrent, from the old runner, and refused when newer. */
class MigrationsTest {
    private static final DatabaseLogin DB = SharedStack.get().database();

    /** Creates an empty database on the shared server; returns its JDBC URL (other store tests use it too). */
    static String createDatabase(String name) throws Exception {
        try (Connection c = DriverManager.getConnection(DB.jdbcUrl(), DB.user(), DB.password());
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        }
        return DB.onDatabase(name).jdbcUrl();
    }

    private static HikariDataSource pool(String url) {
        return ProjectionDatabase.pool(url, DB.user(), DB.password(), 3, "migrations-test");
    }

    private static List<String> tables(HikariDataSource ds) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** The SQLSTATE of running {@code sql} as {@code role}, or null when it succeeds. */
    private static String asRole(String url, String role, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(url, role, "");
                Statement st = c.createStatement()) {
            st.execute(sql);
            return null;
        } catch (java.sql.SQLException e) {
            return e.getSQLState();
        }
    }

    @Test
    void theQueryApiAndAnalystLoginsCanOnlyRead() throws Exception {
        String url = createDatabase("migrations_roles_" + System.nanoTime());
        try (HikariDataSource ds = pool(url)) {
            Migrations.apply(ds);
        }
        assertEquals(null, asRole(url, "electoral_log_query_api", "SELECT count(*) FROM records"));
        assertEquals(null, asRole(url, "electoral_log_query_api", "SELECT count(*) FROM partition_offsets"));
        assertEquals("42501", asRole(url, "electoral_log_query_api", "INSERT INTO topic_layout VALUES ('t', 1)"));
        assertEquals("42501", asRole(url, "electoral_log_query_api", "DELETE FROM records"));
        assertEquals("42501", asRole(url, "electoral_log_query_api", "UPDATE board_state SET size = 0"));
        assertEquals(null, asRole(url, "electoral_log_analyst", "SELECT count(*) FROM analyst_counts"));
        assertEquals(null, asRole(url, "electoral_log_analyst", "SELECT count(*) FROM analyst_records"));
        assertEquals("42501", asRole(url, "electoral_log_analyst", "SELECT count(*) FROM records"));
        assertEquals("42501", asRole(url, "electoral_log_analyst", "SELECT count(*) FROM partition_offsets"));
        // V11: what analysts need from the statements, through views only
        assertEquals(null, asRole(url, "electoral_log_analyst", "SELECT count(*) FROM analyst_idp_events"));
        assertEquals(null, asRole(url, "electoral_log_analyst", "SELECT count(*) FROM analyst_vote_errors"));
        assertEquals(null, asRole(url, "electoral_log_analyst", "SELECT count(*) FROM analyst_hourly_counts"));
        assertEquals("42501", asRole(url, "electoral_log_analyst", "SELECT count(*) FROM hourly_counts"));
        assertEquals("42501", asRole(url, "electoral_log_analyst", "INSERT INTO topic_layout VALUES ('t', 1)"));
        assertEquals(
                "42501",
                asRole(
                        url,
                        "electoral_log_query_api",
                        "INSERT INTO sender_grants (public_key, "
                                + "sender_name, board, kinds, valid_from, created_by) VALUES ('\\x00', 's', '*', '{*}', now(), 't')"));
        // the registrar login (V9) adds and revokes grants and nothing else
        String key = "'\\x" + "00".repeat(32) + "'";
        assertEquals(
                null,
                asRole(
                        url,
                        "electoral_log_registrar",
                        "INSERT INTO sender_grants (public_key, "
                                + "sender_name, board, kinds, valid_from, created_by) VALUES (" + key
                                + ", 's', '*', '{*}', now(), 't')"));
        assertEquals(
                null,
                asRole(
                        url,
                        "electoral_log_registrar",
                        "UPDATE sender_grants SET valid_until = now(), "
                                + "revoked = now(), revoked_by = 't', revocation_reason = 'r'"));
        assertEquals("42501", asRole(url, "electoral_log_registrar", "UPDATE sender_grants SET public_key = " + key));
        assertEquals("42501", asRole(url, "electoral_log_registrar", "DELETE FROM sender_grants"));
        assertEquals("42501", asRole(url, "electoral_log_registrar", "SELECT count(*) FROM records"));
        assertEquals("42501", asRole(url, "electoral_log_registrar", "UPDATE board_state SET size = 0"));
        // V18, V24: data keys are the projector's (the owner's); no reader of public sees one, and the
        // producers' shared login is gone (each producer has its own: KeyCustodyTest)
        String dataKeys = "SELECT count(*) FROM personal_keys.data_keys";
        assertEquals("42501", asRole(url, "electoral_log_query_api", dataKeys));
        assertEquals("42501", asRole(url, "electoral_log_analyst", dataKeys));
        assertEquals("42501", asRole(url, "electoral_log_registrar", dataKeys));
        String ask = "SELECT * FROM personal_keys.sealing_key('b', current_date)";
        assertEquals("42501", asRole(url, "electoral_log_query_api", ask));
        assertEquals("42501", asRole(url, "electoral_log_analyst", ask));
        assertEquals("28000", asRole(url, "electoral_log_keys", dataKeys), "electoral_log_keys no longer logs in");
    }

    @Test
    void aFreshDatabaseGetsEveryMigrationOnceEvenWithConcurrentStarters() throws Exception {
        String url = createDatabase("migrations_fresh_" + System.nanoTime());
        try (HikariDataSource a = pool(url);
                HikariDataSource b = pool(url)) {
            ExecutorService two = Executors.newFixedThreadPool(2);
            Future<Integer> x = two.submit(() -> Migrations.apply(a));
            Future<Integer> y = two.submit(() -> Migrations.apply(b));
            assertEquals(Migrations.latestVersion(), x.get());
            assertEquals(Migrations.latestVersion(), y.get());
            two.shutdown();
            assertTrue(
                    tables(a)
                            .containsAll(List.of(
                                    "boards",
                                    "board_state",
                                    "records",
                                    "tiles",
                                    "counters",
                                    "partition_offsets",
                                    "checkpoints",
                                    "senders",
                                    "topic_layout",
                                    "flyway_schema_history")),
                    tables(a).toString());
            try (Connection c = a.getConnection();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT count(*), max(version::int) FROM flyway_schema_history WHERE success")) {
                if (!rs.next()) {
                    throw new AssertionError("the query returned no row");
                }
                assertEquals(Migrations.latestVersion(), rs.getInt(1), "each migration recorded once");
                assertEquals(Migrations.latestVersion(), rs.getInt(2));
            }
            assertEquals(Migrations.latestVersion(), Migrations.apply(a), "a second start changes nothing");
        }
    }

    @Test
    void aDatabaseOfTheHandWrittenRunnerIsBaselinedNotMigratedAgain() throws Exception {
        String url = createDatabase("migrations_legacy_" + System.nanoTime());
        try (HikariDataSource ds = pool(url)) {
            // the schema the old runner left: migrations 1 to 6 (V15 is not written to run twice)
            org.flywaydb.core.Flyway.configure()
                    .dataSource(ds)
                    .locations("classpath:db/migration")
                    .target("6")
                    .load()
                    .migrate();
            try (Connection c = ds.getConnection();
                    Statement st = c.createStatement()) {
                // what the old runner left: its own table at version 6, no Flyway history
                st.execute("DROP TABLE flyway_schema_history");
                st.execute("CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, "
                        + "applied timestamptz NOT NULL DEFAULT now())");
                st.execute(
                        "INSERT INTO schema_migrations (version, name) SELECT v, 'V' || v FROM generate_series(1, 6) v");
            }
            assertEquals(Migrations.latestVersion(), Migrations.apply(ds), "baselined at 6, then 7 onward applied");
            try (Connection c = ds.getConnection();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT type, version FROM flyway_schema_history ORDER BY installed_rank")) {
                assertTrue(rs.next());
                assertEquals("BASELINE", rs.getString(1));
                assertEquals("6", rs.getString(2));
            }
        }
    }

    /** The version a reader that does not migrate (the query API) sees, at every stage of a database. */
    @Test
    void theAppliedVersionIsTheNewestSuccessfulMigration() throws Exception {
        String url = createDatabase("migrations_applied_" + System.nanoTime());
        try (HikariDataSource ds = pool(url);
                Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            assertEquals(0, Migrations.appliedVersion(c), "an empty database");
            Migrations.apply(ds);
            assertEquals(Migrations.latestVersion(), Migrations.appliedVersion(c));
            // a failed migration is recorded with success false and does not count
            st.execute("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, "
                    + "checksum, installed_by, execution_time, success) VALUES (100, '98', 'failed', 'SQL', "
                    + "'V98__failed.sql', 1, 'test', 1, false)");
            assertEquals(Migrations.latestVersion(), Migrations.appliedVersion(c));
            st.execute("DELETE FROM flyway_schema_history WHERE version = '98'");
            st.execute("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, "
                    + "checksum, installed_by, execution_time, success) VALUES (101, '99', 'from the future', 'SQL', "
                    + "'V99__from_the_future.sql', 1, 'test', 1, true)");
            assertEquals(99, Migrations.appliedVersion(c), "a newer build's migration");
            // the hand-written runner's table alone, as a database no Flyway-era projector started
            st.execute("DROP TABLE flyway_schema_history");
            st.execute("CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL)");
            st.execute("INSERT INTO schema_migrations (version, name) SELECT v, 'V' || v FROM generate_series(1, 6) v");
            assertEquals(6, Migrations.appliedVersion(c));
        }
    }

    @Test
    void aNewerSchemaIsRefused() throws Exception {
        String url = createDatabase("migrations_newer_" + System.nanoTime());
        try (HikariDataSource ds = pool(url)) {
            Migrations.apply(ds);
            try (Connection c = ds.getConnection();
                    Statement st = c.createStatement()) {
                st.execute(
                        "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum, "
                                + "installed_by, execution_time, success) VALUES (100, '99', 'from the future', 'SQL', "
                                + "'V99__from_the_future.sql', 1, 'test', 1, true)");
            }
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Migrations.apply(ds));
            assertTrue(e.getMessage().contains("newer"), e.getMessage());
        }
    }
}
