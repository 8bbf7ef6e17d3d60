package org.electorallog.query;

import java.util.ArrayList;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.store.Projection;

/**
 * The query API's three PostgreSQL pools, each of read-only REPEATABLE READ connections with a 60 s
 * statement timeout: {@code listings} plans every statement for its parameters (listings, filters,
 * counts: decision 20); {@code proofs} keeps cached plans (checkpoint, proof and tile reads, every
 * one an index probe by key: decision 71), so a flood of listings cannot queue a voter's proof;
 * {@code exports} is the exports' own, one connection per export that may run (issue 41), so slow
 * export clients cannot hold the listing pool.
 */
record ReadPools(Projection listings, Projection proofs, Projection exports) implements AutoCloseable {
    /** Opens the three pools ({@code dbPoolSize} each for listings and proofs); none is left open on failure. */
    static ReadPools open(QueryApiSettings settings) {
        List<Projection> opened = new ArrayList<>();
        try {
            int size = settings.http().dbPoolSize();
            DatabaseLogin login = settings.login();
            opened.add(Projection.openSnapshots(login, size, "query-api", true));
            opened.add(Projection.openSnapshots(login, size, "query-api-proofs", false));
            opened.add(Projection.openSnapshots(
                    login, settings.http().limits().exportConcurrency(), "query-api-exports", true));
            return new ReadPools(opened.get(0), opened.get(1), opened.get(2));
        } catch (RuntimeException e) {
            opened.forEach(Projection::close);
            throw e;
        }
    }

    /** Drops every pool's connections, each as soon as it is idle (after PostgreSQL restarted). */
    void reconnect() {
        for (Projection p : List.of(listings, proofs, exports)) {
            p.reconnect();
        }
    }

    @Override
    public void close() {
        listings.close();
        proofs.close();
        exports.close();
    }
}
