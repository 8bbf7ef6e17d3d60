package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.producer.ElectoralLogProducer;
import org.junit.jupiter.api.Test;

/**
 * The projector's delivery-ID lookup (invariant 3's dedup) probes the unique index once per key,
 * also for a board created after the last ANALYZE, whose size the planner then believes to be one
 * row. The plain {@code = ANY(keys)} form walked such a board row by row on every batch.
 */
class DeliveryLookupPlanTest {
    @Test
    void aNewBoardsLookupReadsOneIndexEntryPerKey() throws Exception {
        ProjectorHarness h = new ProjectorHarness("lookup", 1);
        String url = h.createDatabase("lookup_" + System.nanoTime());
        DatabaseLogin db = h.stack.database();
        int n = 4000;
        try (Projector p = Projector.start(h.settings.withDatabase(db.atUrl(url)));
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            for (int i = 0; i < n; i++) {
                producer.publish(ProjectorHarness.statement("old-board", "old-" + i, 1_767_225_600_000L + i));
            }
            producer.flush();
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(2));
            try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
                c.createStatement().execute("ANALYZE records"); // statistics that know nothing of the next board
            }
            for (int i = 0; i < n; i++) {
                producer.publish(ProjectorHarness.statement("new-board", "new-" + i, 1_767_225_600_000L + i));
            }
            producer.flush();
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(2));
        }
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            short board;
            try (ResultSet rs =
                    c.createStatement().executeQuery("SELECT board_id FROM boards WHERE name = 'new-board'")) {
                if (!rs.next()) {
                    throw new AssertionError("the query returned no row");
                }
                board = rs.getShort(1);
            }
            List<java.util.UUID> keys = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                java.nio.ByteBuffer k = java.nio.ByteBuffer.wrap(
                        org.electorallog.store.Deliveries.key(board, (i % 2 == 0 ? "new-" : "absent-") + i));
                keys.add(new java.util.UUID(k.getLong(), k.getLong()));
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + org.electorallog.store.Deliveries.LOOKUP_SQL)) {
                ps.setArray(1, c.createArrayOf("uuid", keys.toArray(java.util.UUID[]::new)));
                ps.setShort(2, board);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new AssertionError("the query returned no row");
                    }
                    String plan = rs.getString(1);
                    long removed = 0;
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"Rows Removed by Filter\": ([0-9.]+)")
                            .matcher(plan);
                    while (m.find()) {
                        removed += (long) Double.parseDouble(m.group(1));
                    }
                    assertTrue(
                            removed == 0,
                            "the lookup filtered " + removed + " rows of a " + n + "-record board: " + plan);
                    assertTrue(
                            plan.contains("\"Index Name\": \"deliveries_pkey\""),
                            "one probe of the primary key of deliveries per key: " + plan);
                    // the 250 stored keys each found their record by its primary key, in its partition
                    assertTrue(plan.contains("\"Index Name\": \"records_pkey_"), "records by primary key: " + plan);
                }
            }
        }
    }
}
