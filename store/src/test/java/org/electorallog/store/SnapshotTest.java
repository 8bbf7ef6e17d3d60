package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/**
 * {@link Snapshot#read} gives one read-only REPEATABLE READ snapshot on any pool: on a pool set up by
 * {@link Snapshot#pool} (isolation set once per connection, no round trip per read) as on a plain one.
 */
class SnapshotTest {
    private static final DatabaseLogin DB = SharedStack.get().database();

    @Test
    void aReadIsOneReadOnlySnapshotOnAPresetPoolAndOnAPlainOne() throws Exception {
        String url = MigrationsTest.createDatabase("snapshot_" + System.nanoTime());
        try (Connection w = DriverManager.getConnection(url, DB.user(), DB.password());
                Statement st = w.createStatement()) {
            st.execute("CREATE TABLE t (v int)");
        }
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        hc.setUsername(DB.user());
        hc.setPassword(DB.password());
        hc.setMaximumPoolSize(1);
        hc.setPoolName("snapshot-preset");
        try (HikariDataSource preset = new HikariDataSource(Snapshot.pool(hc));
                HikariDataSource plain = ProjectionDatabase.pool(url, DB.user(), DB.password(), 1, "snapshot-plain")) {
            assertTrue(Snapshot.repeatableRead(preset));
            assertFalse(Snapshot.repeatableRead(plain));
            for (HikariDataSource ds : List.of(preset, plain, preset, plain)) {
                List<String> seen = Snapshot.read(ds, c -> {
                    List<String> out = new ArrayList<>();
                    out.add(show(c, "transaction_isolation"));
                    out.add(show(c, "transaction_read_only"));
                    out.add(String.valueOf(count(c)));
                    insertElsewhere(url); // committed by another session inside this snapshot
                    out.add(String.valueOf(count(c)));
                    return out;
                });
                assertEquals("repeatable read", seen.get(0), ds.getPoolName());
                assertEquals("on", seen.get(1), ds.getPoolName());
                assertEquals(seen.get(2), seen.get(3), ds.getPoolName() + ": the snapshot does not see a later commit");
                // the next read is a new snapshot and sees it
                long now = Snapshot.read(ds, SnapshotTest::count);
                assertEquals(Long.parseLong(seen.get(3)) + 1, now, ds.getPoolName());
            }
        }
    }

    private static String show(Connection c, String setting) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW " + setting)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    private static long count(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    private static void insertElsewhere(String url) throws SQLException {
        try (Connection w = DriverManager.getConnection(url, DB.user(), DB.password());
                Statement st = w.createStatement()) {
            st.execute("INSERT INTO t VALUES (1)");
        }
    }
}
