package org.electorallog.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The sender registry's admin operations ({@link SenderGrants}, table {@code sender_grants}), each
 * in a transaction of its own on a {@link Projection}'s pool: what {@code electoral-log senders},
 * the query API's {@code /admin/senders} and {@code rebuild} do to it. Failures are {@link
 * ProjectionException}s.
 */
public final class Registry {
    private final Transactions db;

    Registry(DataSource db) {
        this.db = new Transactions(db);
    }

    /** Whether the registry's table exists (store V9 on): a projection no projector started has none. */
    public boolean present() {
        return ProjectionException.wrap("looking for the sender registry", () -> db.autocommit(SenderGrants::present));
    }

    /** Every grant, revoked ones included, by grant ID. */
    public List<SenderGrant> all() {
        return ProjectionException.wrap("reading the sender registry", () -> db.autocommit(SenderGrants::all));
    }

    /** One grant by its ID. */
    public Optional<SenderGrant> byId(long grantId) {
        return ProjectionException.wrap(
                "reading sender grant " + grantId, () -> db.autocommit(c -> SenderGrants.byId(c, grantId)));
    }

    /** Adds a checked grant request; the grant as stored. */
    public SenderGrant add(SenderGrants.Request request) {
        return ProjectionException.wrap("adding a sender grant", () -> db.commit(c -> SenderGrants.add(c, request)));
    }

    /**
     * Revokes grant {@code grantId} from {@code at} on; empty when there is no such grant or it was
     * revoked already ({@link #byId} tells which).
     */
    public Optional<SenderGrant> revoke(long grantId, Instant at, String by, String reason) {
        return ProjectionException.wrap(
                "revoking sender grant " + grantId,
                () -> db.commit(c -> SenderGrants.revoke(c, grantId, at, by, reason)));
    }

    /** Restores {@code grants} as they were (a rebuild's registry), all of them or none, in one transaction. */
    public void restore(List<SenderGrant> grants) {
        ProjectionException.wrap(
                "restoring the sender registry",
                () -> db.commit(c -> {
                    for (SenderGrant g : grants) {
                        SenderGrants.restore(c, g);
                    }
                    return null;
                }));
    }
}
