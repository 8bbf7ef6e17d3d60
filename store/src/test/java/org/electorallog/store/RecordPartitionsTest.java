package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/**
 * Records range-partitioned per board by ID (V15, decision 86): partitions attached as a board
 * grows, with indexes named after the parent's; a repeated delivery key refused across partitions;
 * existing records moved by the migration with their views and grants.
 */
class RecordPartitionsTest {
    private static final DatabaseLogin DB = SharedStack.get().database();

    @Test
    void aBoardGrowsIntoNewPartitionsAndADeliveryKeyStaysUniqueAcrossThem() throws Exception {
        String url = MigrationsTest.createDatabase("partitions_" + System.nanoTime());
        try (HikariDataSource ds = ProjectionDatabase.pool(url, DB.user(), DB.password(), 2, "partitions-test")) {
            Migrations.apply(ds);
            try (Connection c = ds.getConnection()) {
                c.createStatement().execute("UPDATE record_partitioning SET width = 100");
                short a =
                        Boards.create(c, "a", "log.example/a", 0L, new byte[32]).id();
                short b =
                        Boards.create(c, "b", "log.example/b", 0L, new byte[32]).id();
                int sender = Senders.intern(c, List.of(ByteBuffer.wrap(new byte[32])))
                        .values()
                        .iterator()
                        .next();

                assertEquals(300, RecordPartitions.cover(c, a, 250), "IDs 0..250 take three partitions of 100");
                assertEquals(300, RecordPartitions.cover(c, a, 299), "already covered: nothing attached");
                assertEquals(100, RecordPartitions.cover(c, b, 0));
                List<RecordPartitions.Partition> parts = RecordPartitions.of(c, a);
                assertEquals(
                        List.of(
                                new RecordPartitions.Partition(a, 0, 100, "records_" + a + "_0"),
                                new RecordPartitions.Partition(a, 100, 200, "records_" + a + "_1"),
                                new RecordPartitions.Partition(a, 200, 300, "records_" + a + "_2")),
                        parts);
                assertEquals(
                        List.of(
                                "records_ballot_" + a + "_1",
                                "records_election_" + a + "_1",
                                "records_kind_" + a + "_1",
                                "records_leaf_key_" + a + "_1",
                                "records_pkey_" + a + "_1",
                                "records_statement_ts_" + a + "_1",
                                "records_user_" + a + "_1",
                                "records_username_" + a + "_1"),
                        strings(
                                c,
                                "SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = 'records_" + a
                                        + "_1'::regclass ORDER BY 1"));

                RecordInserter.DEFAULT.insert(c, rows(a, sender, 0, 250, "a-"));
                RecordInserter.DEFAULT.insert(c, rows(b, sender, 0, 50, "a-"));
                assertEquals(
                        List.of(
                                "records_" + a + "_0 100",
                                "records_" + a + "_1 100",
                                "records_" + a + "_2 50",
                                "records_" + b + "_0 50"),
                        strings(
                                c,
                                "SELECT p || ' ' || n FROM (SELECT tableoid::regclass::text AS p, count(*) AS n FROM records GROUP BY 1) t ORDER BY 1"));
                assertEquals(300, count(c, "SELECT count(*) FROM deliveries"));

                // record 260 repeats record 5's delivery ID: five partitions apart, still refused
                c.setAutoCommit(false);
                List<RecordRow> repeat = rows(a, sender, 250, 10, "a-");
                repeat.add(row(a, sender, 260, "a-5"));
                SQLException refused = assertThrows(SQLException.class, () -> RecordInserter.DEFAULT.insert(c, repeat));
                assertTrue(Deliveries.isStoredKey(refused), refused.toString());
                c.rollback();
                c.setAutoCommit(true);
                assertEquals(250, count(c, "SELECT count(*) FROM records WHERE board_id = " + a));
                assertEquals(
                        List.of("a-5"), Deliveries.storedIds(c, a, List.of(ByteBuffer.wrap(Deliveries.key(a, "a-5")))));
                assertEquals(
                        List.of(), Deliveries.storedIds(c, a, List.of(ByteBuffer.wrap(Deliveries.key(a, "a-999")))));

                // a second record 7 (a new delivery ID) is refused by its partition's primary key
                c.setAutoCommit(false);
                SQLException doubled = assertThrows(
                        SQLException.class, () -> RecordInserter.DEFAULT.insert(c, List.of(row(a, sender, 7, "z-7"))));
                assertEquals("23505", doubled.getSQLState(), doubled.toString());
                assertTrue(doubled.getMessage().contains("records_pkey_" + a + "_0"), doubled.toString());
                assertTrue(!Deliveries.isStoredKey(doubled), "not a stored delivery key: " + doubled);
                c.rollback();
                c.setAutoCommit(true);

                // a scratch board (negative ID, the warm-up's) goes to records_scratch: nothing attached
                c.setAutoCommit(false);
                assertEquals(Long.MAX_VALUE, RecordPartitions.cover(c, (short) -7, 5_000_000));
                RecordInserter.DEFAULT.insert(c, rows((short) -7, sender, 4_999_990, 10, "s-"));
                assertEquals(
                        List.of("records_scratch 10"),
                        strings(
                                c,
                                "SELECT p || ' ' || n FROM (SELECT tableoid::regclass::text AS p, count(*) AS n "
                                        + "FROM records WHERE board_id = -7 GROUP BY 1) t"));
                assertEquals(0, count(c, "SELECT count(*) FROM record_partitions WHERE board_id < 0"));
                c.rollback();
                c.setAutoCommit(true);
                assertTrue(
                        strings(
                                        c,
                                        "SELECT indexrelid::regclass::text FROM pg_index "
                                                + "WHERE indrelid = 'records_scratch'::regclass")
                                .contains("records_user_scratch"),
                        "the scratch partition's indexes are named after the parent's");

                // a record past the last partition has nowhere to go until one is attached
                SQLException outside = assertThrows(
                        SQLException.class, () -> RecordInserter.DEFAULT.insert(c, rows(a, sender, 300, 1, "y-")));
                assertEquals(
                        "23514", outside.getSQLState(), outside.toString()); // no partition of relation found for row

                // a query by a random key reads each partition's own index (once analyzed, as
                // autovacuum does a partition after its first rows)
                // (a hundred rows a partition are few enough for a sequential scan, so that is ruled out)
                c.createStatement().execute("ANALYZE records");
                c.createStatement().execute("SET enable_seqscan = off");
                String plan = strings(
                                c, "EXPLAIN SELECT id FROM records WHERE board_id = " + a + " AND user_id = 'user-7'")
                        .toString();
                assertTrue(
                        plan.contains("records_user_" + a + "_0") && plan.contains("records_user_" + a + "_2"), plan);
                assertTrue(!plan.contains("records_" + b + "_0"), "the other board's partition is pruned: " + plan);
                String byId = strings(
                                c,
                                "EXPLAIN SELECT stored_statement FROM records WHERE board_id = " + a + " AND id = 150")
                        .toString();
                assertTrue(byId.contains("records_pkey_" + a + "_1") && !byId.contains("records_" + a + "_0 "), byId);
            }
        }
    }

    @Test
    void theMigrationMovesExistingRecordsIntoPartitionsWithTheirViewsAndKeys() throws Exception {
        String url = MigrationsTest.createDatabase("partitions_moved_" + System.nanoTime());
        try (HikariDataSource ds = ProjectionDatabase.pool(url, DB.user(), DB.password(), 2, "partitions-moved")) {
            // a projection of the schema before V15, with records on two boards
            org.flywaydb.core.Flyway.configure()
                    .dataSource(ds)
                    .locations("classpath:db/migration")
                    .target("14")
                    .load()
                    .migrate();
            try (Connection c = ds.getConnection();
                    Statement st = c.createStatement()) {
                short a =
                        Boards.create(c, "a", "log.example/a", 0L, new byte[32]).id();
                short b =
                        Boards.create(c, "b", "log.example/b", 0L, new byte[32]).id();
                int sender = Senders.intern(c, List.of(ByteBuffer.wrap(new byte[32])))
                        .values()
                        .iterator()
                        .next();
                // today's inserter sends V21's openings and V22's leaf_key columns too, and names the
                // statement column as V22 does: so for the inserts only
                st.execute("ALTER TABLE records ADD COLUMN openings bytea, ADD COLUMN leaf_key bigint");
                st.execute("ALTER TABLE records RENAME COLUMN statement TO stored_statement");
                RecordInserter.DEFAULT.insert(c, "records", rows(a, sender, 0, 300, "a-"));
                RecordInserter.DEFAULT.insert(c, "records", rows(b, sender, 0, 20, "b-"));
                st.execute("ALTER TABLE records RENAME COLUMN stored_statement TO statement");
                st.execute("ALTER TABLE records DROP COLUMN openings, DROP COLUMN leaf_key");
                st.execute("CREATE ROLE partitions_reader_" + a + b + "_" + Math.abs(url.hashCode()));
            }
            List<String> before = dump(ds, "statement");
            assertEquals(Migrations.latestVersion(), Migrations.apply(ds));
            try (Connection c = ds.getConnection()) {
                assertEquals(
                        before,
                        dump(ds, "stored_statement"),
                        "every record moved, field for field (V22 renames statement)");
                assertEquals(
                        "p",
                        strings(c, "SELECT relkind::text FROM pg_class WHERE oid = 'records'::regclass")
                                .get(0));
                assertEquals(
                        List.of("1 0 1048576 records_1_0", "2 0 1048576 records_2_0"),
                        strings(
                                c,
                                "SELECT board_id || ' ' || first_id || ' ' || end_id || ' ' || name "
                                        + "FROM record_partitions ORDER BY 1"));
                assertEquals(
                        320,
                        count(
                                c,
                                "SELECT count(*) FROM deliveries d JOIN records r "
                                        + "ON r.id = d.id AND d.key = board_delivery_key(r.board_id, r.delivery_id)"));
                assertEquals(320, count(c, "SELECT count(*) FROM analyst_records"), "the view reads the new table");
                assertEquals(0, count(c, "SELECT count(*) FROM pg_class WHERE relname = 'records_unpartitioned'"));
                // V22: the cast votes written before it (kind 1, canonical bytes) get their leaf keys, found by leaf
                // hash
                assertEquals(160, count(c, "SELECT count(*) FROM records WHERE kind = 1 AND leaf_key IS NOT NULL"));
                assertEquals(0, count(c, "SELECT count(*) FROM records WHERE kind <> 1 AND leaf_key IS NOT NULL"));
                short boardA = (short) count(c, "SELECT board_id FROM boards WHERE name = 'a'");
                byte[] statement = ("statement " + boardA + " " + 42).getBytes(StandardCharsets.UTF_8);
                assertEquals(
                        java.util.Optional.of(42L),
                        RecordStatements.idByLeafHash(c, boardA, org.electorallog.core.Hashes.leafHash(statement)));
            }
        }
    }

    /** The records, with their statements read from the named column (statement before V22). */
    private static List<String> dump(HikariDataSource ds, String statementColumn) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return strings(
                    c,
                    "SELECT concat_ws('|', board_id, id, created, statement_ts, kind, sender_id, user_id, "
                            + "username, election_id, area_id, ballot_id, delivery_id, encode(" + statementColumn
                            + ", 'hex'), schema_id, "
                            + "kafka_partition, kafka_offset, event_type, error) FROM records ORDER BY board_id, id");
        }
    }

    private static List<RecordRow> rows(short board, int sender, long from, int n, String prefix) {
        List<RecordRow> out = new ArrayList<>();
        for (long i = from; i < from + n; i++) {
            out.add(row(board, sender, i, prefix + i));
        }
        return out;
    }

    private static RecordRow row(short board, int sender, long i, String deliveryId) {
        return new RecordRow(
                board,
                i,
                1_767_225_600_000L + i,
                1_767_225_500_000L + i,
                (short) (i % 2 == 0 ? 1 : 5),
                sender,
                new IndexedFields("user-" + i % 13, "u" + i, "election-0", "area-1", i % 2 == 0 ? "ballot-" + i : null),
                deliveryId,
                ("statement " + board + " " + i).getBytes(StandardCharsets.UTF_8),
                1,
                0,
                i,
                null,
                null,
                null,
                null);
    }

    private static List<String> strings(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                throw new AssertionError("no row: " + sql);
            }
            return rs.getLong(1);
        }
    }
}
