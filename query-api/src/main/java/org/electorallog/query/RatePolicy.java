package org.electorallog.query;

import java.time.Duration;

/**
 * The rate limits of a query API instance, one per route class ({@link RateClass}), per client
 * address and minute, the same for every role and every spelling of a path (issue 41,
 * docs/security.md "Rate limits"); 0 = no limit. Refused bearer tokens are counted per address
 * too, and exports have a concurrency of their own, on a pool of their own, with a write timeout.
 *
 * @param proofs             inclusion (by ID or leaf hash), consistency and proof-bundle requests
 * @param tiles              hash tiles and entry bundles
 * @param ballots            ballot locator requests (each up to 1,000 bundles)
 * @param reads              other reads under /boards
 * @param adminReads         everything under /admin
 * @param failedAuth         refused bearer tokens; past them a token-bearing request gets 429
 * @param exportConcurrency  exports at once (at least 1)
 * @param exportWriteTimeout how long an export's client may accept no bytes
 */
public record RatePolicy(
        int proofs,
        int tiles,
        int ballots,
        int reads,
        int adminReads,
        int failedAuth,
        int exportConcurrency,
        Duration exportWriteTimeout) {
    public RatePolicy {
        for (int n : new int[] {proofs, tiles, ballots, reads, adminReads, failedAuth}) {
            if (n < 0) {
                throw new IllegalArgumentException("a rate limit is 0 (none) or more, got " + n);
            }
        }
        if (exportConcurrency < 1 || exportWriteTimeout.isNegative() || exportWriteTimeout.isZero()) {
            throw new IllegalArgumentException("exports need a concurrency of at least 1 and a positive write timeout");
        }
    }

    /** The catalogue's defaults (docs/configuration.md). */
    public static RatePolicy defaults() {
        return new RatePolicy(600, 6000, 60, 600, 1200, 20, 2, Duration.ofSeconds(30));
    }

    /** No rate limit at all (a benchmark's client, a test of something else); exports as by default. */
    public static RatePolicy unlimited() {
        return new RatePolicy(0, 0, 0, 0, 0, 0, 2, Duration.ofSeconds(30));
    }

    /** Every class limited to {@code perMinute} (failed authentications too). */
    public static RatePolicy everyClass(int perMinute) {
        return new RatePolicy(
                perMinute, perMinute, perMinute, perMinute, perMinute, perMinute, 2, Duration.ofSeconds(30));
    }

    public RatePolicy withProofs(int perMinute) {
        return new RatePolicy(
                perMinute, tiles, ballots, reads, adminReads, failedAuth, exportConcurrency, exportWriteTimeout);
    }

    public RatePolicy withExports(int concurrency, Duration writeTimeout) {
        return new RatePolicy(proofs, tiles, ballots, reads, adminReads, failedAuth, concurrency, writeTimeout);
    }

    /** The per-minute limit of a class; 0 = none. */
    int perMinute(RateClass c) {
        return switch (c) {
            case PROOFS -> proofs;
            case TILES -> tiles;
            case BALLOTS -> ballots;
            case READS -> reads;
            case ADMIN_READS -> adminReads;
            case NONE -> 0;
        };
    }
}
