package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Set;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/**
 * {@link ProjectionDatabase#hugePagesStatus} reports the running server's own state (decision 82), and
 * that state agrees with the kernel: a server cannot have its shared memory in huge pages when the
 * kernel reserves none.
 */
class ProjectionDatabaseTest {
    private static final DatabaseLogin DB = SharedStack.get().database();

    /**
     * Issue 61 item 4: the embedded server has no standby, so an erasure committed on it would not
     * survive a failover anywhere; the projector warns with this text at its start.
     */
    @Test
    void aDatabaseWithoutASynchronousStandbySaysSo() throws Exception {
        try (Connection c = DriverManager.getConnection(DB.jdbcUrl(), DB.user(), DB.password())) {
            assertEquals(
                    "no synchronous standby (synchronous_standby_names is empty)",
                    ProjectionDatabase.synchronousStandby(c));
        }
    }

    @Test
    void hugePagesStatusIsTheServersAndAgreesWithTheKernel() throws Exception {
        String status;
        int major;
        try (Connection c = DriverManager.getConnection(DB.jdbcUrl(), DB.user(), DB.password())) {
            status = ProjectionDatabase.hugePagesStatus(c);
            major = ServerVersion.major(c);
        }
        if (major < 17) {
            assertEquals("unknown", status, "PostgreSQL " + major + " has no huge_pages_status");
            return;
        }
        assertTrue(Set.of("on", "off").contains(status), "a started server is either: " + status);
        long reserved = reservedHugePages();
        if (reserved == 0) {
            assertEquals("off", status, "the kernel reserves no huge pages");
        }
    }

    /** HugePages_Total of /proc/meminfo; -1 off Linux. */
    private static long reservedHugePages() throws Exception {
        Path meminfo = Path.of("/proc/meminfo");
        if (!Files.exists(meminfo)) {
            return -1;
        }
        return Files.readAllLines(meminfo).stream()
                .filter(l -> l.startsWith("HugePages_Total:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
                .findFirst()
                .orElse(-1);
    }
}
