package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/** The server reads and the maintenance the load-test harness runs through store, on a real PostgreSQL. */
class ServerStatisticsTest {
    private static final DatabaseLogin DB = SharedStack.get().database();

    @Test
    void readsTheServersCountersAndMakesAndDropsAScratchDatabase() throws Exception {
        try (Connection c = DriverManager.getConnection(DB.jdbcUrl(), DB.user(), DB.password())) {
            assertTrue(ServerStatistics.serverVersion(c).matches("\\d+.*"), ServerStatistics.serverVersion(c));
            Map<String, Long> wal = ServerStatistics.wal(c);
            assertEquals(
                    java.util.List.of("records", "full_page_images", "bytes", "buffers_full"),
                    java.util.List.copyOf(wal.keySet()));
            // pg_stat_checkpointer exists from PostgreSQL 17 on; before, the map is empty rather than an error
            Map<String, Long> checkpointer = ServerStatistics.checkpointer(c);
            assertTrue(checkpointer.isEmpty() || checkpointer.containsKey("requested"), checkpointer.toString());

            String name = "server_statistics_" + System.nanoTime();
            ServerStatistics.createDatabase(c, name);
            assertTrue(exists(c, name));
            ServerStatistics.dropDatabase(c, name);
            assertFalse(exists(c, name));
        }
    }

    @Test
    void refusesNamesAndTablesItDoesNotTake() throws Exception {
        try (Connection c = DriverManager.getConnection(DB.jdbcUrl(), DB.user(), DB.password())) {
            assertThrows(
                    IllegalArgumentException.class, () -> ServerStatistics.createDatabase(c, "x; DROP DATABASE y"));
            assertThrows(IllegalArgumentException.class, () -> ServerStatistics.dropDatabase(c, "Upper"));
            assertThrows(IllegalArgumentException.class, () -> ServerStatistics.vacuumAnalyze(c, "boards; SELECT 1"));
        }
    }

    private static boolean exists(Connection c, String name) throws Exception {
        try (var ps = c.prepareStatement("SELECT count(*) FROM pg_database WHERE datname = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                return rs.getLong(1) == 1;
            }
        }
    }
}
