package org.electorallog.projector;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the versioned SQL migrations in {@code db/migration} in order, each in its own
 * transaction, recording them in {@code schema_migrations}. Concurrent starters serialize on an
 * advisory lock. A database whose schema is newer than this build knows is refused.
 */
public final class Migrations {
    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    /** Every migration, in order; a file's version is its position + 1. Append only. */
    static final List<String> FILES = List.of("V1__projection.sql", "V2__analyst_views.sql", "V3__statement_signatures.sql", "V4__ballot_locator.sql",
            "V5__listing_indexes.sql", "V6__topic_layout.sql");
    private static final long LOCK_KEY = 0x656C6563L; // "elec"

    private Migrations() {
    }

    public static int latestVersion() {
        return FILES.size();
    }

    /** Brings the schema up to date; returns the version it is at. */
    public static int apply(DataSource ds) {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(true);
            try (Statement st = c.createStatement()) {
                st.execute("SELECT pg_advisory_lock(" + LOCK_KEY + ")");
                try {
                    st.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                            + "version integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())");
                    int current;
                    try (ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM schema_migrations")) {
                        rs.next();
                        current = rs.getInt(1);
                    }
                    if (current > FILES.size()) {
                        throw new IllegalStateException("the database schema is at version " + current
                                + " but this build knows only up to " + FILES.size() + ": run a newer build");
                    }
                    for (int v = current + 1; v <= FILES.size(); v++) {
                        String name = FILES.get(v - 1);
                        c.setAutoCommit(false);
                        try {
                            st.execute(read(name));
                            try (var ps = c.prepareStatement("INSERT INTO schema_migrations(version, name) VALUES (?, ?)")) {
                                ps.setInt(1, v);
                                ps.setString(2, name);
                                ps.executeUpdate();
                            }
                            c.commit();
                        } catch (SQLException | RuntimeException e) {
                            c.rollback();
                            throw new IllegalStateException("migration " + name + " failed: " + e.getMessage(), e);
                        } finally {
                            c.setAutoCommit(true);
                        }
                        LOG.info("applied migration {}", name);
                    }
                    return FILES.size();
                } finally {
                    st.execute("SELECT pg_advisory_unlock(" + LOCK_KEY + ")");
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot migrate the database: " + e.getMessage(), e);
        }
    }

    private static String read(String name) {
        try (InputStream in = Migrations.class.getResourceAsStream("/db/migration/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing migration resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read migration " + name, e);
        }
    }
}
