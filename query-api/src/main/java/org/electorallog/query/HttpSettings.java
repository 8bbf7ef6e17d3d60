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
 * @param adminHost          the address the admin port listens on (issue 61: loopback unless set);
 *                           HTTPS there too when {@code tlsKeystore} is set
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
        int fullTiles,
        String adminHost) {
    /** Settings with the admin port, if any, on loopback. */
    public HttpSettings(
            String host,
            Path tlsKeystore,
            String tlsPassword,
            List<String> corsOrigins,
            RatePolicy limits,
            int maxBodyBytes,
            int dbPoolSize,
            int adminPort,
            int fullTiles) {
        this(
                host,
                tlsKeystore,
                tlsPassword,
                corsOrigins,
                limits,
                maxBodyBytes,
                dbPoolSize,
                adminPort,
                fullTiles,
                "127.0.0.1");
    }

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
        if (limits == null || maxBodyBytes < 1 || dbPoolSize < 1 || fullTiles < 0 || adminHost == null) {
            throw new IllegalArgumentException("rate limits are needed, body size and pool size must be positive, "
                    + "and the full tiles kept 0 or more, and the admin port needs an address");
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
                host,
                tlsKeystore,
                tlsPassword,
                corsOrigins,
                l,
                maxBodyBytes,
                dbPoolSize,
                adminPort,
                fullTiles,
                adminHost);
    }

    public HttpSettings withCors(List<String> origins) {
        return new HttpSettings(
                host,
                tlsKeystore,
                tlsPassword,
                origins,
                limits,
                maxBodyBytes,
                dbPoolSize,
                adminPort,
                fullTiles,
                adminHost);
    }

    public HttpSettings withTls(Path keystore, String password) {
        return new HttpSettings(
                host,
                keystore,
                password,
                corsOrigins,
                limits,
                maxBodyBytes,
                dbPoolSize,
                adminPort,
                fullTiles,
                adminHost);
    }

    public HttpSettings withMaxBodyBytes(int bytes) {
        return new HttpSettings(
                host,
                tlsKeystore,
                tlsPassword,
                corsOrigins,
                limits,
                bytes,
                dbPoolSize,
                adminPort,
                fullTiles,
                adminHost);
    }

    /** Admin endpoints and /metrics on {@code port} only (0: on the public port). */
    public HttpSettings withAdminPort(int port) {
        return new HttpSettings(
                host,
                tlsKeystore,
                tlsPassword,
                corsOrigins,
                limits,
                maxBodyBytes,
                dbPoolSize,
                port,
                fullTiles,
                adminHost);
    }

    /** The admin port, if any, listening on {@code address}. */
    public HttpSettings withAdminHost(String address) {
        return new HttpSettings(
                host,
                tlsKeystore,
                tlsPassword,
                corsOrigins,
                limits,
                maxBodyBytes,
                dbPoolSize,
                adminPort,
                fullTiles,
                address);
    }

    /** Whether the admin port listens on a loopback address only: a scraper there is on this host. */
    boolean adminOnLoopback() {
        return adminHost.equals("localhost") || adminHost.equals("::1") || adminHost.startsWith("127.");
    }

    /** {@code tiles} full hash tiles kept in memory (0: none). */
    public HttpSettings withFullTiles(int tiles) {
        return new HttpSettings(
                host,
                tlsKeystore,
                tlsPassword,
                corsOrigins,
                limits,
                maxBodyBytes,
                dbPoolSize,
                adminPort,
                tiles,
                adminHost);
    }

    /** Whether a path is served on the admin port when there is one: the admin endpoints and the metrics. */
    static boolean adminPath(String path) {
        return path.startsWith("/admin/") || path.equals("/metrics");
    }
}
