package org.electorallog.query;

import java.nio.file.Path;
import java.util.List;

/**
 * How a query API instance faces the network (docs/configuration.md).
 *
 * @param host               address to listen on
 * @param tlsKeystore        PKCS12 keystore with the server's certificate and key; null = plain HTTP
 * @param tlsPassword        its password
 * @param corsOrigins        origins whose browsers may call the public endpoints ("*" = any); empty = none
 * @param limits             rate limits per route class, refused tokens and exports ({@link RatePolicy})
 * @param maxBodyBytes       largest request body; larger bodies get 413
 * @param dbPoolSize         PostgreSQL connections
 * @param adminPort          a second port for the admin endpoints and /metrics, which the public port then
 *                           answers 404 for; 0 = everything on the public port
 * @param fullTiles          full hash tiles kept in memory ({@link FullTiles}); 0 = none
 */
public record HttpSettings(
        String host,
        Path tlsKeystore,
        String tlsPassword,
        List<String> corsOrigins,
        RatePolicy limits,
        int maxBodyBytes,
        int dbPoolSize,
        int adminPort,
        int fullTiles) {
    /** Settings with everything on one port. */
    public HttpSettings(
            String host,
            Path tlsKeystore,
            String tlsPassword,
            List<String> corsOrigins,
            RatePolicy limits,
            int maxBodyBytes,
            int dbPoolSize) {
        this(
                host,
                tlsKeystore,
                tlsPassword,
                corsOrigins,
                limits,
                maxBodyBytes,
                dbPoolSize,
                0,
                FullTiles.DEFAULT_CAPACITY);
    }

    public HttpSettings {
        corsOrigins = List.copyOf(corsOrigins);
        if (limits == null || maxBodyBytes < 1 || dbPoolSize < 1 || fullTiles < 0) {
            throw new IllegalArgumentException("rate limits are needed, body size and pool size must be positive, "
                    + "and the full tiles kept 0 or more");
        }
    }

    /** Loopback, plain HTTP, no CORS, the default rate limits, 64 KiB bodies, 8 connections. */
    public static HttpSettings defaults() {
        return new HttpSettings("127.0.0.1", null, null, List.of(), RatePolicy.defaults(), 64 * 1024, 8);
    }

    public HttpSettings withProofRate(int perMinute) {
        return withLimits(limits.withProofs(perMinute));
    }

    public HttpSettings withLimits(RatePolicy l) {
        return new HttpSettings(
                host, tlsKeystore, tlsPassword, corsOrigins, l, maxBodyBytes, dbPoolSize, adminPort, fullTiles);
    }

    public HttpSettings withCors(List<String> origins) {
        return new HttpSettings(
                host, tlsKeystore, tlsPassword, origins, limits, maxBodyBytes, dbPoolSize, adminPort, fullTiles);
    }

    public HttpSettings withTls(Path keystore, String password) {
        return new HttpSettings(
                host, keystore, password, corsOrigins, limits, maxBodyBytes, dbPoolSize, adminPort, fullTiles);
    }

    public HttpSettings withMaxBodyBytes(int bytes) {
        return new HttpSettings(
                host, tlsKeystore, tlsPassword, corsOrigins, limits, bytes, dbPoolSize, adminPort, fullTiles);
    }

    /** Admin endpoints and /metrics on {@code port} only (0: on the public port). */
    public HttpSettings withAdminPort(int port) {
        return new HttpSettings(
                host, tlsKeystore, tlsPassword, corsOrigins, limits, maxBodyBytes, dbPoolSize, port, fullTiles);
    }

    /** {@code tiles} full hash tiles kept in memory (0: none). */
    public HttpSettings withFullTiles(int tiles) {
        return new HttpSettings(
                host, tlsKeystore, tlsPassword, corsOrigins, limits, maxBodyBytes, dbPoolSize, adminPort, tiles);
    }

    /** Whether a path is served on the admin port when there is one: the admin endpoints and the metrics. */
    static boolean adminPath(String path) {
        return path.startsWith("/admin/") || path.equals("/metrics");
    }
}
