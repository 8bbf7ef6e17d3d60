package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.electorallog.store.Projection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The query API's two pools (decision 71): listings and exports plan every statement for its
 * parameters, checkpoint, proof and tile reads keep their cached plans; both are read-only
 * REPEATABLE READ with a statement timeout, and both report their metrics.
 */
class PoolsTest {
    @BeforeAll
    static void load() throws Exception {
        QueryApiTest.load();
    }

    @Test
    void listingsPlanAfreshAndProofsKeepTheirPlans() throws Exception {
        DatabaseLogin db = SharedStack.get().database();
        QueryApiSettings settings =
                QueryApiSettings.publicOnly(new DatabaseLogin(db.jdbcUrl(), "electoral_log_query_api", ""), 0);
        try (Projection listings = Projection.openSnapshots(settings.login(), 8, "pools-test-listings", true);
                Projection proofs = Projection.openSnapshots(settings.login(), 8, "pools-test-proofs", false)) {
            assertEquals("force_custom_plan", show(listings.dataSource(), "plan_cache_mode"));
            assertEquals("auto", show(proofs.dataSource(), "plan_cache_mode"));
            for (Projection p : new Projection[] {listings, proofs}) {
                HikariDataSource pool = (HikariDataSource) p.dataSource();
                assertEquals("1min", show(pool, "statement_timeout"), pool.getPoolName());
                try (Connection c = pool.getConnection()) {
                    assertTrue(c.isReadOnly(), pool.getPoolName());
                    assertEquals(Connection.TRANSACTION_REPEATABLE_READ, c.getTransactionIsolation());
                }
            }
        }
    }

    @Test
    void bothPoolsOfTheRunningApiReportTheirConnections() throws Exception {
        // a proof and a listing, so that each pool has lent a connection
        assertEquals(
                200,
                QueryApiTest.get("/boards/" + QueryApiTest.BOARD + "/records/1/proof")
                        .statusCode());
        assertEquals(200, QueryApiTest.get("/boards").statusCode());
        String metrics = QueryApiTest.get("/metrics", Role.ADMIN).body();
        assertTrue(metrics.contains("hikaricp_connections_active{pool=\"query-api\"}"), metrics);
        assertTrue(metrics.contains("hikaricp_connections_active{pool=\"query-api-proofs\"}"), metrics);
        assertTrue(metrics.contains("hikaricp_connections_active{pool=\"query-api-exports\"}"), metrics);
    }

    private static String show(javax.sql.DataSource pool, String setting) throws SQLException {
        try (Connection c = pool.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW " + setting)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }
}
