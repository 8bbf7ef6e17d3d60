package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.config.Configuration;
import org.electorallog.core.NoteSigner;
import org.junit.jupiter.api.Test;

/** The query API's settings from the shared configuration; every bad one is named, no secret is echoed. */
class QueryApiConfigTest {
    static Map<String, String> valid() {
        return new HashMap<>(Map.of("ELECTORAL_LOG_JDBC_URL", "jdbc:postgresql://db/log"));
    }

    static String error(Map<String, String> env) {
        return assertThrows(IllegalArgumentException.class, () -> QueryApiConfig.from(Configuration.load(env)))
                .getMessage();
    }

    @Test
    void readsComeFromTheReadUrlAndTheRegistrarWritesToThePrimary() {
        QueryApiSettings alone = QueryApiConfig.from(Configuration.load(valid()));
        assertEquals("jdbc:postgresql://db/log", alone.login().jdbcUrl(), "without a read URL, reads go to JDBC_URL");
        Map<String, String> env = valid();
        env.put("ELECTORAL_LOG_READ_JDBC_URL", "jdbc:postgresql://standby,db/log?targetServerType=preferSecondary");
        env.put("ELECTORAL_LOG_REGISTRAR_DB_USER", "electoral_log_registrar");
        QueryApiSettings s = QueryApiConfig.from(Configuration.load(env));
        assertEquals(
                "jdbc:postgresql://standby,db/log?targetServerType=preferSecondary",
                s.login().jdbcUrl());
        assertEquals("jdbc:postgresql://db/log", s.registrar().jdbcUrl(), "the registrar writes to the primary");
    }

    @Test
    void defaultsAndEverySetting() {
        QueryApiSettings d = QueryApiConfig.from(Configuration.load(valid()));
        assertEquals(8080, d.port());
        assertEquals("127.0.0.1", d.http().host());
        assertNull(d.adminToken());
        assertNull(d.verifierEvery());
        assertEquals(600, d.http().limits().proofs());
        assertEquals(VoterLanguages.SHIPPED, d.voterLanguages().tags());
        Map<String, String> env = valid();
        NoteSigner log = NoteSigner.generate("log.example");
        env.putAll(Map.of(
                "ELECTORAL_LOG_HTTP_HOST",
                "0.0.0.0",
                "ELECTORAL_LOG_HTTP_PORT",
                "9001",
                "ELECTORAL_LOG_ADMIN_TOKEN",
                "admin-token-0123456789",
                "ELECTORAL_LOG_LOG_KEYS",
                log.verifierKey(),
                "ELECTORAL_LOG_CURSOR_KEY",
                java.util.Base64.getEncoder().encodeToString(new byte[32]),
                "ELECTORAL_LOG_CORS_ORIGINS",
                "https://a.example,https://b.example",
                "ELECTORAL_LOG_PROOF_RATE_PER_MINUTE",
                "0",
                "ELECTORAL_LOG_VERIFIER_EVERY_S",
                "5",
                "ELECTORAL_LOG_DB_POOL_SIZE",
                "20"));
        QueryApiSettings s = QueryApiConfig.from(Configuration.load(env));
        assertEquals(9001, s.port());
        assertEquals("0.0.0.0", s.http().host());
        assertEquals(List.of("https://a.example", "https://b.example"), s.http().corsOrigins());
        assertEquals(1, s.logKeys().size());
        assertEquals(5, s.verifierEvery().toSeconds());
        assertEquals(20, s.http().dbPoolSize());
    }

    @Test
    void accessSettingsByRoleOidcAndWhatIsPublic() {
        Map<String, String> env = valid();
        env.putAll(Map.of(
                "ELECTORAL_LOG_OBSERVER_TOKEN", "observer-token-0123456789",
                "ELECTORAL_LOG_ANALYST_TOKEN", "analyst-token-0123456789",
                "ELECTORAL_LOG_OIDC_ISSUER", "https://idp.example/realms/e",
                "ELECTORAL_LOG_OIDC_JWKS_URL", "https://idp.example/realms/e/certs",
                "ELECTORAL_LOG_OIDC_AUDIENCE", "electoral-log",
                "ELECTORAL_LOG_PUBLIC_KINDS", "ELECTION_PUBLISHED,TALLY_CLOSED",
                "ELECTORAL_LOG_PUBLIC_FIELDS", "election_id",
                "ELECTORAL_LOG_TRUSTED_PROXIES", "10.0.0.1,10.0.0.2"));
        AccessSettings a = QueryApiConfig.from(Configuration.load(env)).effectiveAccess();
        assertEquals("observer-token-0123456789", a.tokens().get(Role.OBSERVER));
        assertEquals("analyst-token-0123456789", a.tokens().get(Role.ANALYST));
        assertEquals("realm_access.roles", a.oidc().rolesClaim());
        assertEquals("sub", a.oidc().userClaim());
        assertEquals(AccessSettings.Oidc.DEFAULT_CLOCK_SKEW_SECONDS, a.oidc().clockSkewSeconds());
        assertEquals(java.util.Set.of("ELECTION_PUBLISHED", "TALLY_CLOSED"), a.publicKinds());
        assertEquals(List.of("10.0.0.1", "10.0.0.2"), a.trustedProxies());
        assertTrue(
                QueryApiConfig.from(Configuration.load(valid()))
                        .effectiveAccess()
                        .tokens()
                        .isEmpty(),
                "no token is configured by default");

        Map<String, String> bad = valid();
        bad.put("ELECTORAL_LOG_PUBLIC_KINDS", "BALLOT_STUFFING");
        assertTrue(error(bad).contains("not a statement kind"));
        bad = valid();
        bad.put("ELECTORAL_LOG_PUBLIC_FIELDS", "ip");
        assertTrue(error(bad).contains("cannot be public") || error(bad).contains("can be public"), error(bad));
        bad = valid();
        bad.put("ELECTORAL_LOG_VOTER_TOKEN", "voter-token-0123456789");
        assertTrue(error(bad).contains("ELECTORAL_LOG_VOTER_TOKEN_USER"));
        bad = valid();
        bad.put("ELECTORAL_LOG_OIDC_ISSUER", "https://idp.example");
        assertTrue(error(bad).contains("ELECTORAL_LOG_OIDC_JWKS_URL"));
        bad = valid();
        bad.put("ELECTORAL_LOG_VERIFIER_EVERY_S", "5");
        assertTrue(error(bad).contains("ELECTORAL_LOG_LOG_KEYS"), "the verifier needs the log's keys");
    }

    @Test
    void badSettingsAreNamedAndSecretsAreNotEchoed() {
        assertTrue(error(Map.of()).contains("ELECTORAL_LOG_JDBC_URL is required"));
        Map<String, String> languages = valid();
        languages.put("ELECTORAL_LOG_VOTER_LANGUAGES", "ar,klingon");
        assertTrue(
                error(languages)
                        .contains(
                                "ELECTORAL_LOG_VOTER_LANGUAGES: the voter page has no catalogue for the language 'klingon'"),
                error(languages));
        languages.put("ELECTORAL_LOG_VOTER_LANGUAGES", "ar,fr");
        assertEquals(
                List.of("ar", "fr"),
                QueryApiConfig.from(Configuration.load(languages))
                        .voterLanguages()
                        .tags());
        Map<String, String> env = valid();
        env.put("ELECTORAL_LOG_ADMIN_TOKEN", "short-secret");
        String m = error(env);
        assertTrue(m.contains("ELECTORAL_LOG_ADMIN_TOKEN") && !m.contains("short-secret"), m);
        env = valid();
        env.put("ELECTORAL_LOG_HTTP_PORT", "70000");
        assertTrue(error(env).contains("ELECTORAL_LOG_HTTP_PORT"));
        env = valid();
        env.put("ELECTORAL_LOG_LOG_KEYS", "not-a-key");
        assertTrue(error(env).contains("ELECTORAL_LOG_LOG_KEYS"));
        env = valid();
        env.put("ELECTORAL_LOG_CURSOR_KEY", java.util.Base64.getEncoder().encodeToString(new byte[8]));
        assertTrue(error(env).contains("at least 16 bytes"));
        env = valid();
        env.put("ELECTORAL_LOG_TLS_KEYSTORE", "/no/such/keystore.p12");
        assertTrue(error(env).contains("ELECTORAL_LOG_TLS_KEYSTORE"));
        env = valid();
        env.put("ELECTORAL_LOG_MAX_BODY_BYTES", "10");
        assertTrue(error(env).contains("ELECTORAL_LOG_MAX_BODY_BYTES"));
        env = valid();
        env.put("ELECTORAL_LOG_ADMIN_TOKN", "typo-of-a-setting");
        m = error(env);
        assertTrue(m.contains("ELECTORAL_LOG_ADMIN_TOKN") && m.contains("docs/configuration.md"), m);
        assertFalse(m.contains("typo-of-a-setting"), m);

        // a settings value printed (a log line, a failure message) shows none of its secrets
        env = valid();
        env.put("ELECTORAL_LOG_DB_PASSWORD", "db-secret-1234");
        env.put("ELECTORAL_LOG_ADMIN_TOKEN", "admin-secret-0123456789");
        String shown = QueryApiConfig.from(Configuration.load(env)).toString();
        assertTrue(shown.contains("jdbc:postgresql://db/log") && shown.contains("admin endpoints on"), shown);
        assertFalse(shown.contains("db-secret-1234") || shown.contains("admin-secret-0123456789"), shown);
    }
}
