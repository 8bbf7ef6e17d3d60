package org.electorallog.query;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.store.Snapshot;

/**
 * The query API's three PostgreSQL pools, each of read-only REPEATABLE READ connections with a 60 s
 * statement timeout: {@code listings} plans every statement for its parameters (listings, filters,
 * counts: decision 20); {@code proofs} keeps cached plans (checkpoint, proof and tile reads, every
 * one an index probe by key: decision 71), so a flood of listings cannot queue a voter's proof;
 * {@code exports} is the exports' own, one connection per export that may run (issue 41), so slow
 * export clients cannot hold the listing pool.
 */
record ReadPools(HikariDataSource listings, HikariDataSource proofs, HikariDataSource exports)
        implements AutoCloseable {
    /** Opens the three pools ({@code dbPoolSize} each for listings and proofs); none is left open on failure. */
    static ReadPools open(QueryApiSettings settings) {
        List<HikariDataSource> opened = new ArrayList<>();
        try {
            int size = settings.http().dbPoolSize();
            opened.add(pool(settings, "query-api", true, size));
            opened.add(pool(settings, "query-api-proofs", false, size));
            opened.add(pool(
                    settings,
                    "query-api-exports",
                    true,
                    settings.http().limits().exportConcurrency()));
            return new ReadPools(opened.get(0), opened.get(1), opened.get(2));
        } catch (RuntimeException e) {
            opened.forEach(HikariDataSource::close);
            throw e;
        }
    }

    /**
     * A pool of read-only REPEATABLE READ connections (a request's snapshot begins without a round
     * trip) with a 60 s statement timeout; {@code customPlans}: every statement planned for its own
     * parameters (a generic plan for "kind = $1" could walk the primary key for a rare kind).
     */
    static HikariDataSource pool(QueryApiSettings settings, String name, boolean customPlans, int size) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(settings.jdbcUrl());
        hc.setUsername(settings.user());
        hc.setPassword(settings.password());
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(1);
        hc.setPoolName(name);
        // the pool's name in pg_stat_activity too: an operator (and a test) sees which pool waits
        hc.addDataSourceProperty("ApplicationName", name);
        Snapshot.pool(hc);
        hc.addDataSourceProperty(
                "options", (customPlans ? "-c plan_cache_mode=force_custom_plan " : "") + "-c statement_timeout=60000");
        return new HikariDataSource(hc);
    }

    /** Drops every pool's connections, each as soon as it is idle (after PostgreSQL restarted). */
    void reconnect() {
        for (HikariDataSource ds : List.of(listings, proofs, exports)) {
            ds.getHikariPoolMXBean().softEvictConnections();
        }
    }

    @Override
    public void close() {
        listings.close();
        proofs.close();
        exports.close();
    }
}
