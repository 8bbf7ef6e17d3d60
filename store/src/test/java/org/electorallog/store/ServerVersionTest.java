package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.EmbeddedPostgresServer;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/**
 * Issue 47: the suite runs on the major the build asked for (the default pass on the newest, the
 * {@code postgres-oldest} pass on the oldest), and a server older than the oldest is refused.
 */
class ServerVersionTest {
    private static final DatabaseLogin DB = SharedStack.get().database();

    @Test
    void theServerIsTheMajorTheBuildAskedForAndASupportedOne() throws Exception {
        try (Connection c = DriverManager.getConnection(DB.jdbcUrl(), DB.user(), DB.password())) {
            int major = ServerVersion.requireSupported(c);
            String asked = System.getProperty(EmbeddedPostgresServer.EXPECTED_MAJOR_PROPERTY, "");
            if (!asked.isBlank()) {
                assertEquals(Integer.parseInt(asked), major);
            }
            assertTrue(major >= ServerVersion.OLDEST_MAJOR && major <= ServerVersion.NEWEST_TESTED_MAJOR, "" + major);
        }
    }

    @Test
    void anOlderServerIsRefusedWithTheOldestSupported() {
        assertEquals(
                "PostgreSQL 14 is older than the oldest supported major, 15 (README \"Supported PostgreSQL\"):"
                        + " upgrade the server",
                ServerVersion.refusal(14));
        assertNull(ServerVersion.refusal(ServerVersion.OLDEST_MAJOR));
        assertNull(ServerVersion.refusal(ServerVersion.NEWEST_TESTED_MAJOR + 1));
    }
}
