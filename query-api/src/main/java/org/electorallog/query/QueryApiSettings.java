package org.electorallog.query;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.WitnessPolicy;

/**
 * Settings of a query API instance.
 *
 * @param jdbcUrl         the projection (primary or read replica)
 * @param user            database user (the read-only role suffices)
 * @param password        database password
 * @param port            HTTP port, 0 for any free port
 * @param adminToken      bearer token of the admin endpoints; null disables them
 * @param logKeys         the log's verifier keys, used by audits to check checkpoint signatures
 * @param verifierEvery   how often the incremental verifier checks new records; null disables it
 * @param fullAuditEvery  how often the verifier runs the full audit of every board
 * @param cursorKey       HMAC key of page cursors (at least 16 bytes), shared by every replica; null = a random
 *                        key for this process (cursors then only work on the instance that issued them)
 * @param http            host, TLS, CORS, rate and size limits, pool size
 * @param verifierMemory  where the incremental verifier keeps the largest checkpoint it verified per board,
 *                        outside the projection; null = in memory only (lost on restart)
 * @param access          tokens by role, OIDC, what anonymous callers see, trusted proxies; null = the
 *                        admin token alone ({@link AccessSettings#adminOnly})
 * @param registrar       a login that may write the sender registry and nothing else (store V9's
 *                        electoral_log_registrar), for the admin endpoints; null = those answer 503
 * @param witnesses       the witnesses and quorum the voter page checks cosignatures against
 *                        (ELECTORAL_LOG_WITNESSES, docs/witnesses.md); {@link WitnessPolicy#NONE} = none
 */
@SuppressWarnings("ArrayRecordComponent") // settings, never compared as a value
public record QueryApiSettings(
        String jdbcUrl,
        String user,
        String password,
        int port,
        String adminToken,
        List<NoteVerifier> logKeys,
        Duration verifierEvery,
        Duration fullAuditEvery,
        byte[] cursorKey,
        HttpSettings http,
        AccessSettings access,
        Path verifierMemory,
        DatabaseLogin registrar,
        WitnessPolicy witnesses) {
    /** The settings without their secrets (the database password, the admin token, the cursor key). */
    @Override
    public String toString() {
        return "QueryApiSettings[" + login() + ", port=" + port + ", admin endpoints "
                + (adminToken == null ? "off" : "on") + ", logKeys=" + logKeys.size() + ", verifierEvery="
                + verifierEvery + ", registrar=" + registrar + ", witnesses=" + witnesses + "]";
    }

    /** The projection's login (the read-only role suffices). */
    public DatabaseLogin login() {
        return new DatabaseLogin(jdbcUrl, user, password);
    }

    /** Settings with the admin endpoints behind {@code token} (at least 16 characters; null: none). */
    public QueryApiSettings withAdminToken(String token) {
        return copy(c -> c.adminToken = token);
    }

    /** The HMAC key of page cursors (at least 16 bytes), the same on every replica. */
    public QueryApiSettings withCursorKey(byte[] key) {
        return copy(c -> c.cursorKey = key);
    }

    /** The log's verifier keys, with which audits check checkpoint signatures. */
    public QueryApiSettings withLogKeys(List<NoteVerifier> keys) {
        return copy(c -> c.logKeys = keys);
    }

    /**
     * The incremental verifier every {@code every} (null: off) and its full audit every {@code
     * fullAudit}.
     */
    public QueryApiSettings withVerifier(Duration every, Duration fullAudit) {
        return copy(c -> {
            c.verifierEvery = every;
            c.fullAuditEvery = fullAudit;
        });
    }

    public QueryApiSettings withRegistrar(DatabaseLogin r) {
        return copy(c -> c.registrar = r);
    }

    public QueryApiSettings withAccess(AccessSettings a) {
        return copy(c -> c.access = a);
    }

    public QueryApiSettings withVerifierMemory(Path memory) {
        return copy(c -> c.verifierMemory = memory);
    }

    public QueryApiSettings withWitnesses(WitnessPolicy w) {
        return copy(c -> c.witnesses = w);
    }

    /** The access settings in force: {@code access}, with the admin token among its tokens. */
    AccessSettings effectiveAccess() {
        AccessSettings a = access == null ? AccessSettings.none() : access;
        if (adminToken == null || a.tokens().containsKey(Role.ADMIN)) {
            return a;
        }
        Map<Role, String> tokens = new EnumMap<>(Role.class);
        tokens.putAll(a.tokens());
        tokens.put(Role.ADMIN, adminToken);
        return new AccessSettings(
                tokens, a.voterTokenUser(), a.oidc(), a.publicKinds(), a.publicFields(), a.trustedProxies());
    }

    public QueryApiSettings withHttp(HttpSettings h) {
        return copy(c -> c.http = h);
    }

    public QueryApiSettings {
        logKeys = List.copyOf(logKeys);
        if (witnesses == null) {
            witnesses = WitnessPolicy.NONE;
        }
        if (cursorKey == null) {
            cursorKey = new byte[32];
            new SecureRandom().nextBytes(cursorKey);
        }
        if (adminToken != null && adminToken.length() < 16) {
            throw new IllegalArgumentException("the admin token must be at least 16 characters");
        }
    }

    /**
     * Settings of an API with no admin token, no verifier and no registrar, the configuration's
     * defaults otherwise: what the withers start from.
     */
    public static QueryApiSettings publicOnly(String jdbcUrl, String user, String password, int port) {
        return new QueryApiSettings(
                jdbcUrl,
                user,
                password,
                port,
                null,
                List.of(),
                null,
                Duration.ofSeconds(Setting.FULL_AUDIT_EVERY_S.defaultNumber()),
                null,
                HttpSettings.defaults(),
                null,
                null,
                null,
                WitnessPolicy.NONE);
    }

    /** The settings' values, to change some and build new settings from (every wither goes through it). */
    private static final class Values {
        String jdbcUrl;
        String user;
        String password;
        int port;
        String adminToken;
        List<NoteVerifier> logKeys;
        Duration verifierEvery;
        Duration fullAuditEvery;
        byte[] cursorKey;
        HttpSettings http;
        AccessSettings access;
        Path verifierMemory;
        DatabaseLogin registrar;
        WitnessPolicy witnesses;

        Values(QueryApiSettings s) {
            jdbcUrl = s.jdbcUrl;
            user = s.user;
            password = s.password;
            port = s.port;
            adminToken = s.adminToken;
            logKeys = s.logKeys;
            verifierEvery = s.verifierEvery;
            fullAuditEvery = s.fullAuditEvery;
            cursorKey = s.cursorKey;
            http = s.http;
            access = s.access;
            verifierMemory = s.verifierMemory;
            registrar = s.registrar;
            witnesses = s.witnesses;
        }

        QueryApiSettings build() {
            return new QueryApiSettings(
                    jdbcUrl,
                    user,
                    password,
                    port,
                    adminToken,
                    logKeys,
                    verifierEvery,
                    fullAuditEvery,
                    cursorKey,
                    http,
                    access,
                    verifierMemory,
                    registrar,
                    witnesses);
        }
    }

    private QueryApiSettings copy(Consumer<Values> change) {
        Values v = new Values(this);
        change.accept(v);
        return v.build();
    }
}
