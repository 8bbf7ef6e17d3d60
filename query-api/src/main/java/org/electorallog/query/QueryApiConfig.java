package org.electorallog.query;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.electorallog.config.Configuration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.statement.StatementKinds;

/**
 * Reads {@link QueryApiSettings} from the configuration (environment variables and an optional
 * properties file, docs/configuration.md); a missing or invalid setting is an error that names it,
 * and no secret is ever part of a message.
 */
public final class QueryApiConfig {
    private QueryApiConfig() {}

    public static QueryApiSettings from(Configuration conf) {
        DatabaseLogin owner = DatabaseLogin.of(conf);
        String token = conf.secret(Setting.ADMIN_TOKEN);
        if (token != null && token.length() < 16) {
            throw new IllegalArgumentException(Setting.ADMIN_TOKEN.env + " must be at least 16 characters");
        }
        List<NoteVerifier> keys = new ArrayList<>();
        for (String k : conf.list(Setting.LOG_KEYS)) {
            try {
                keys.add(NoteVerifier.parse(k));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(Setting.LOG_KEYS.env
                        + " holds a key that is not a signed-note verifier key (" + e.getMessage() + ")");
            }
        }
        byte[] cursorKey = conf.base64Secret(Setting.CURSOR_KEY);
        long verifierSeconds = conf.number(Setting.VERIFIER_EVERY_S);
        long auditSeconds = conf.number(Setting.FULL_AUDIT_EVERY_S);
        if (verifierSeconds > 0 && keys.isEmpty()) {
            throw new IllegalArgumentException(Setting.VERIFIER_EVERY_S.env + " needs " + Setting.LOG_KEYS.env
                    + ": the verifier checks the log's signature on every checkpoint it remembers");
        }
        Path keystore = conf.path(Setting.TLS_KEYSTORE);
        if (keystore != null && !Files.isReadable(keystore)) {
            throw new IllegalArgumentException(Setting.TLS_KEYSTORE.env + ": cannot read '" + keystore + "'");
        }
        String keystorePassword = conf.secret(Setting.TLS_KEYSTORE_PASSWORD);
        HttpSettings http = new HttpSettings(
                conf.get(Setting.HTTP_HOST),
                keystore,
                keystorePassword,
                conf.list(Setting.CORS_ORIGINS),
                limits(conf),
                (int) conf.number(Setting.MAX_BODY_BYTES),
                (int) conf.number(Setting.DB_POOL_SIZE),
                conf.port(Setting.ADMIN_PORT),
                (int) conf.number(Setting.FULL_TILES),
                conf.get(Setting.ADMIN_HOST));
        if (http.adminPort() != 0 && http.adminPort() == conf.port(Setting.HTTP_PORT)) {
            throw new IllegalArgumentException(Setting.ADMIN_PORT.env + " must differ from " + Setting.HTTP_PORT.env);
        }
        // reads may come from a standby; the registrar's writes go to JDBC_URL (the primary)
        String reads = conf.isSet(Setting.READ_JDBC_URL) ? conf.get(Setting.READ_JDBC_URL) : owner.jdbcUrl();
        return QueryApiSettings.publicOnly(owner.atUrl(reads), conf.port(Setting.HTTP_PORT))
                .withAdminToken(token)
                .withLogKeys(keys)
                .withVerifier(
                        verifierSeconds == 0 ? null : Duration.ofSeconds(verifierSeconds),
                        Duration.ofSeconds(auditSeconds))
                .withCursorKey(cursorKey)
                .withHttp(http)
                .withAccess(access(conf))
                .withVerifierMemory(Path.of(conf.get(Setting.VERIFIER_MEMORY)))
                .withRegistrar(registrar(conf, owner.jdbcUrl()))
                .withWitnesses(WitnessPolicy.of(
                        conf.fileText(Setting.WITNESS_POLICY_FILE),
                        conf.list(Setting.WITNESSES),
                        conf.get(Setting.WITNESS_QUORUM)))
                .withVoterLanguages(voterLanguages(conf));
    }

    /** ELECTORAL_LOG_VOTER_LANGUAGES, each with a shipped catalogue. */
    public static VoterLanguages voterLanguages(Configuration conf) {
        try {
            return VoterLanguages.of(conf.list(Setting.VOTER_LANGUAGES));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Setting.VOTER_LANGUAGES.env + ": " + e.getMessage(), e);
        }
    }

    /** The rate limits per route class, refused tokens and exports (docs/security.md "Rate limits"). */
    static RatePolicy limits(Configuration conf) {
        return new RatePolicy(
                (int) conf.number(Setting.PROOF_RATE_PER_MINUTE),
                (int) conf.number(Setting.TILE_RATE_PER_MINUTE),
                (int) conf.number(Setting.BALLOT_RATE_PER_MINUTE),
                (int) conf.number(Setting.READ_RATE_PER_MINUTE),
                (int) conf.number(Setting.ADMIN_READ_RATE_PER_MINUTE),
                (int) conf.number(Setting.FAILED_AUTH_PER_MINUTE),
                (int) conf.number(Setting.EXPORT_CONCURRENCY),
                Duration.ofSeconds(conf.number(Setting.EXPORT_WRITE_TIMEOUT_S)));
    }

    /** The sender registry's writer login, when configured. */
    static DatabaseLogin registrar(Configuration conf, String jdbc) {
        if (!conf.isSet(Setting.REGISTRAR_DB_USER)) {
            return null;
        }
        String password = conf.secret(Setting.REGISTRAR_DB_PASSWORD);
        return new DatabaseLogin(jdbc, conf.get(Setting.REGISTRAR_DB_USER), password == null ? "" : password);
    }

    /** Tokens by role, OIDC, what anonymous callers see, trusted proxies (docs/security.md). */
    static AccessSettings access(Configuration conf) {
        Map<Role, String> tokens = new EnumMap<>(Role.class);
        token(conf, tokens, Role.OBSERVER, Setting.OBSERVER_TOKEN);
        token(conf, tokens, Role.ANALYST, Setting.ANALYST_TOKEN);
        token(conf, tokens, Role.VOTER, Setting.VOTER_TOKEN);
        token(conf, tokens, Role.ADMIN, Setting.ADMIN_TOKEN);
        String voterUser = conf.isSet(Setting.VOTER_TOKEN_USER) ? conf.get(Setting.VOTER_TOKEN_USER) : null;
        if (tokens.containsKey(Role.VOTER) && voterUser == null) {
            throw new IllegalArgumentException(Setting.VOTER_TOKEN.env + " needs " + Setting.VOTER_TOKEN_USER.env);
        }
        AccessSettings.Oidc oidc = null;
        if (conf.isSet(Setting.OIDC_ISSUER)) {
            oidc = new AccessSettings.Oidc(
                    conf.get(Setting.OIDC_ISSUER),
                    conf.required(Setting.OIDC_JWKS_URL),
                    conf.required(Setting.OIDC_AUDIENCE),
                    conf.get(Setting.OIDC_ROLES_CLAIM),
                    conf.get(Setting.OIDC_USER_CLAIM),
                    Math.toIntExact(conf.number(Setting.OIDC_CLOCK_SKEW_SECONDS)));
        }
        Set<String> kinds = new TreeSet<>(conf.list(Setting.PUBLIC_KINDS));
        for (String k : kinds) {
            if (StatementKinds.code(k) < 0) {
                throw new IllegalArgumentException(Setting.PUBLIC_KINDS.env + ": '" + k + "' is not a statement kind");
            }
        }
        try {
            return new AccessSettings(
                    tokens,
                    voterUser,
                    oidc,
                    kinds,
                    new TreeSet<>(conf.list(Setting.PUBLIC_FIELDS)),
                    conf.list(Setting.TRUSTED_PROXIES));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("access settings: " + e.getMessage(), e);
        }
    }

    private static void token(Configuration conf, Map<Role, String> tokens, Role role, Setting s) {
        String t = conf.secret(s);
        if (t != null) {
            if (t.length() < 16) {
                throw new IllegalArgumentException(conf.secretSource(s) + " must be at least 16 characters");
            }
            tokens.put(role, t);
        }
    }
}
