package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.StorageReport;
import org.junit.jupiter.api.Test;

/** Lag, health, analyst views, the read-only role, and bytes per record (above an empty projection) within the brief's budget. */
class OperationsTest {
    static final int VOTERS = 6_000;

    @Test
    void metricsHealthViewsAndStorage() throws Exception {
        ProjectorHarness h = new ProjectorHarness("ops", 2);
        String url = h.createDatabase("ops_" + System.nanoTime());
        DatabaseLogin db = h.stack.database();
        ElectionStatements[] boards = {
            new ElectionStatements("ops-board-0", 3), new ElectionStatements("ops-board-1", 4)
        };
        try (Projector p = Projector.start(h.settings.withDatabase(db.atUrl(url)));
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            for (int v = 0; v < VOTERS; v++) {
                for (Statement s : boards[v % 2].voter(v / 2)) {
                    producer.publish(s);
                }
            }
            producer.flush();
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(2));
            assertEquals(Map.of(0, 0L, 1, 0L), p.lag(), "caught up: no lag on either partition");
            Map<String, Object> health = p.health();
            assertEquals(true, health.get("healthy"), health.toString());
            assertEquals(VOTERS * 5L, p.metrics().recordsWritten());
        }
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            try (ResultSet rs = c.createStatement()
                    .executeQuery(
                            "SELECT n FROM analyst_counts WHERE board = 'ops-board-0' AND kind = 'CAST_VOTE' AND election_id IS NULL")) {
                assertTrue(rs.next());
                assertEquals(VOTERS / 2, rs.getLong(1));
            }
            try (ResultSet rs = c.createStatement()
                    .executeQuery(
                            "SELECT count(*) FILTER (WHERE kind IS NULL), max(n) FILTER (WHERE kind = 'WITH_USER') "
                                    + "FROM analyst_counts WHERE board = 'ops-board-0'")) {
                assertTrue(rs.next());
                assertEquals(0, rs.getLong(1), "every counter has a kind name");
                try (ResultSet users = c.createStatement()
                        .executeQuery("SELECT count(*) FROM analyst_records "
                                + "WHERE board = 'ops-board-0' AND user_id IS NOT NULL")) {
                    if (!users.next()) {
                        throw new AssertionError("the query returned no row");
                    }
                    assertEquals(users.getLong(1), rs.getLong(2), "WITH_USER counts the records with a user");
                }
            }
            try (ResultSet rs = c.createStatement()
                    .executeQuery(
                            "SELECT count(*) FROM analyst_records WHERE board = 'ops-board-1' AND kind = 'IDP_USER_EVENT'")) {
                if (!rs.next()) {
                    throw new AssertionError("the query returned no row");
                }
                assertEquals(VOTERS / 2 * 4L, rs.getLong(1));
            }
            try (ResultSet rs = c.createStatement()
                    .executeQuery("SELECT has_table_privilege('electoral_log_reader', 'records', 'SELECT'), "
                            + "has_table_privilege('electoral_log_reader', 'records', 'INSERT')")) {
                if (!rs.next()) {
                    throw new AssertionError("the query returned no row");
                }
                assertTrue(rs.getBoolean(1), "the reader role can read records");
                assertTrue(!rs.getBoolean(2), "the reader role cannot write them");
            }
        }
        // what an empty projection takes (every table's and index's first pages): a fixed cost, about
        // 20 bytes a record at this size and nothing at the tens of millions the budget is for
        long empty;
        String emptyUrl = h.createDatabase("ops_empty_" + System.nanoTime());
        try (HikariDataSource ds = ProjectionDatabase.pool(emptyUrl, db.user(), db.password(), 2, "storage-empty")) {
            Migrations.apply(ds);
            empty = StorageReport.measure(ds).totalBytes();
        }
        try (HikariDataSource ds = ProjectionDatabase.pool(url, db.user(), db.password(), 1, "storage")) {
            StorageReport report = StorageReport.measure(ds);
            Files.createDirectories(Path.of("target"));
            Files.writeString(Path.of("target/storage-report.json"), report.toJson());
            System.out.println("storage: " + report.toJson());
            assertEquals(VOTERS * 5L, report.records());
            double perRecord = (double) (report.totalBytes() - empty) / report.records();
            assertTrue(
                    perRecord <= 1_100,
                    "at most 1,100 bytes per record with every index and tile, above an empty projection's " + empty
                            + " bytes: " + perRecord + "; " + report.toJson());
        }
    }

    /** One voter: 4 identity-provider events (about 330-450 bytes) and 1 cast vote (about 700 bytes). */
}
