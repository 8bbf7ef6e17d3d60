package org.electorallog.query;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import org.electorallog.store.LogReader;
import org.electorallog.store.Migrations;
import org.electorallog.store.Projection;
import org.electorallog.store.ProjectionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the projection's schema is the version this build reads ({@link Migrations#latestVersion}).
 * The query API never migrates (its login may only read); the projector applies the migrations
 * when it starts. Until the schema is at that version, readiness answers 503 saying so and every
 * endpoint that reads the projection (under {@code /boards} and {@code /admin/}) answers 503 with
 * a problem saying what to do, instead of a 500 from a missing table or column. A newer schema
 * (the projector of a newer build has migrated; this instance is next in a rolling upgrade) is
 * served, with one warning: a migration does not remove what the previous release reads (decision
 * 65). Once the schema is current it is not read again.
 */
final class ProjectionSchema {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectionSchema.class);
    private final Projection db;
    private final int needed;
    private volatile boolean current;

    ProjectionSchema(Projection db, int needed) {
        this.db = db;
        this.needed = needed;
    }

    /** Null when the schema is current (or newer); else what is wrong and what to do about it. */
    String problem() {
        if (current) {
            return null;
        }
        int version;
        try {
            version = db.statement(LogReader::schemaVersion);
        } catch (ProjectionException e) {
            return "cannot read the projection's schema version (" + e.getMessage() + ")";
        }
        if (version < needed) {
            return "the projection's schema is at version " + version + " and this query API reads version " + needed
                    + ": the projector applies the migrations when it starts; start it (or wait for it)";
        }
        if (version > needed) {
            LOG.warn(
                    "the projection's schema is at version {}, newer than this query API's {}: serving it, as in a "
                            + "rolling upgrade; upgrade this instance",
                    version,
                    needed);
        }
        current = true;
        return null;
    }

    /** Whether the endpoints at {@code path} read the projection: the board and admin endpoints. */
    static boolean readsProjection(String path) {
        return path.startsWith("/boards") || path.startsWith("/admin/");
    }

    /** A before-handler: a request that reads the projection gets a 503 until the schema is current. */
    void require(Context ctx) {
        if (!ctx.method().equals(HandlerType.OPTIONS) && readsProjection(ctx.path())) {
            String p = problem();
            if (p != null) {
                throw new ApiException(Problem.Type.UNAVAILABLE, p);
            }
        }
    }
}
