package org.electorallog.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL majors the projection supports (README "Supported PostgreSQL"; the build runs the
 * store, projector and query API tests on the oldest and the newest, docs/testing.md). The projector
 * checks the server before it migrates: an older one is refused with the reason, a newer one than
 * the build has run on is used with a warning.
 */
public final class ServerVersion {
    private static final Logger LOG = LoggerFactory.getLogger(ServerVersion.class);

    /** The oldest major the migrations and queries are tested on. */
    public static final int OLDEST_MAJOR = 15;

    /** The newest major the build has run the tests on. */
    public static final int NEWEST_TESTED_MAJOR = 18;

    private ServerVersion() {}

    /** The server's major version ({@code server_version_num} / 10000, e.g. 18 for 180006). */
    public static int major(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW server_version_num")) {
            if (!rs.next()) {
                throw new SQLException("SHOW server_version_num returned no row");
            }
            return Integer.parseInt(rs.getString(1).strip()) / 10_000;
        }
    }

    /** Why a server of {@code major} cannot hold the projection, or null when it can. */
    static String refusal(int major) {
        if (major < OLDEST_MAJOR) {
            return "PostgreSQL " + major + " is older than the oldest supported major, " + OLDEST_MAJOR
                    + " (README \"Supported PostgreSQL\"): upgrade the server";
        }
        return null;
    }

    /** Refuses a server older than {@link #OLDEST_MAJOR}; warns about one newer than any tested. */
    public static int requireSupported(Connection c) throws SQLException {
        int major = major(c);
        String refusal = refusal(major);
        if (refusal != null) {
            throw new IllegalStateException(refusal);
        }
        if (major > NEWEST_TESTED_MAJOR) {
            LOG.warn(
                    "PostgreSQL {} is newer than any major this build was tested on ({} to {})",
                    major,
                    OLDEST_MAJOR,
                    NEWEST_TESTED_MAJOR);
        }
        return major;
    }
}
