package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.KeycloakAdmin;
import org.electorallog.infra.KeycloakRealm;
import org.electorallog.infra.KeycloakServer;
import org.electorallog.infra.OidcLogin;
import org.electorallog.infra.SharedStack;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The query API against a real Keycloak (issue 47): the server distribution of the build, the
 * election realm of {@code keycloak/election-realm.json} with a user per role, tokens obtained as a
 * person's browser does (authorization code with PKCE) or a back-office job does (client
 * credentials). Accepted with the right role; refused when expired, for another audience, from
 * another realm, and after the realm's key is rotated and the old key removed, while a token of the
 * new key is accepted without a restart; a voter sees their own ballots only. The voters' user IDs
 * are fixed at import so that the ballots {@link QueryApiTest#load()} publishes are theirs.
 */
class KeycloakOidcTest {
    static final String REALM = "election";
    static final String OTHER_REALM = "another-election";
    static final String ROTATION_REALM = "rotating-election";
    static final String REDIRECT = "http://127.0.0.1:8080/voter";
    static final String PASSWORD = secret();
    static final String REPORTS_SECRET = secret();
    /** Tokens of this client live 10 s: the expiry test waits that long, not five minutes. */
    static final String SHORT_LIVED = "short-lived-reports";

    /** The board of this test's ballots ({@link #ballots()}, published by {@link QueryApiTest#load()}). */
    static final String BOARD = "api-oidc";
    /** Keycloak user IDs of the two voters, fixed at import as a realm migration keeps them. */
    static final String VOTER_A = "0b7d4c8e-6a0f-4c2e-9d1b-3f5e7a9c1d20";

    static final String VOTER_B = "5f2a9e61-8c3b-4d7a-a0e4-6b1c9d8f2e73";
    /** Six cast votes: record i is VOTER_A's when i is even, VOTER_B's when odd. */
    static final int BALLOTS_PER_VOTER = 3;

    static final String LISTING = "/admin/boards/" + BOARD + "/records?limit=1";
    /** A query plan: administrators only. */
    static final String EXPLAIN = "/admin/boards/" + BOARD + "/records/explain?limit=1";

    static final String RECORD_OF_A = "/boards/" + BOARD + "/records/0";
    static final String RECORD_OF_B = "/boards/" + BOARD + "/records/1";
    static final String BALLOTS = "/boards/" + BOARD + "/ballots?election_id=e1&limit=50";
    /** The API tolerates 1 s of clock difference, so the expiry test waits exp + 2 s, not exp + 30 s. */
    static final int CLOCK_SKEW_SECONDS = 1;

    static KeycloakServer keycloak;
    static KeycloakAdmin admin;
    static QueryApi api;

    @BeforeAll
    static void start() throws Exception {
        QueryApiTest.load();
        keycloak = KeycloakServer.start(KeycloakServer.distributionFromProperty(), Path.of("target/keycloak-run"));
        admin = new KeycloakAdmin(keycloak);
        admin.importRealm(KeycloakRealm.election(REALM)
                .withUser(VOTER_A, "voter-a", PASSWORD, "voter")
                .withUser(VOTER_B, "voter-b", PASSWORD, "voter")
                .withUser(null, "observer-1", PASSWORD, "observer")
                .withUser(null, "analyst-1", PASSWORD, "analyst")
                .withUser(null, "admin-1", PASSWORD, "admin")
                .withUser(null, "no-role-1", PASSWORD, null)
                .withReportsSecret(REPORTS_SECRET)
                // the same sign-in, but its tokens are for another application (no electoral-log audience)
                .withClientLike(KeycloakRealm.PORTAL_CLIENT, "other-app", KeycloakRealm::withoutAudience, null)
                .withClientLike(
                        KeycloakRealm.REPORTS_CLIENT,
                        SHORT_LIVED,
                        c -> KeycloakRealm.accessTokenLifespan(c, 10),
                        "analyst"));
        admin.importRealm(KeycloakRealm.election(OTHER_REALM).withUser(null, "analyst-1", PASSWORD, "analyst"));
        admin.importRealm(KeycloakRealm.election(ROTATION_REALM).withUser(null, "analyst-1", PASSWORD, "analyst"));
        api = startApi(REALM);
    }

    @AfterAll
    static void stop() {
        if (api != null) {
            api.close();
        }
        if (keycloak != null) {
            keycloak.close();
        }
    }

    static QueryApi startApi(String realm) {
        DatabaseLogin db = SharedStack.get().database();
        AccessSettings.Oidc oidc = new AccessSettings.Oidc(
                keycloak.issuer(realm),
                keycloak.jwksUrl(realm),
                KeycloakRealm.AUDIENCE,
                "realm_access.roles",
                "sub",
                CLOCK_SKEW_SECONDS);
        return QueryApi.start(
                QueryApiSettings.publicOnly(new DatabaseLogin(db.jdbcUrl(), "electoral_log_query_api", ""), 0)
                        .withAccess(new AccessSettings(java.util.Map.of(), null, oidc, Set.of(), Set.of(), List.of())));
    }

    static String signIn(String realm, String client, String username) {
        return OidcLogin.signIn(keycloak, realm, client, REDIRECT, username, PASSWORD);
    }

    static String signIn(String username) {
        return signIn(REALM, KeycloakRealm.PORTAL_CLIENT, username);
    }

    static HttpResponse<String> get(QueryApi on, String path, String token) throws Exception {
        return QueryApiTest.HTTP.send(
                HttpRequest.newBuilder(URI.create(on.baseUrl() + path))
                        .header("Authorization", "Bearer " + token)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static int status(String path, String token) throws Exception {
        return get(api, path, token).statusCode();
    }

    @Test
    void peopleSignedInWithTheBrowserFlowGetTheirRole() throws Exception {
        String voter = signIn("voter-a");
        assertEquals(200, status(RECORD_OF_A, voter), "a voter's own record");
        assertEquals(403, status(RECORD_OF_B, voter), "another voter's record");
        assertEquals(403, status(LISTING, voter));

        String observer = signIn("observer-1");
        assertEquals(200, status(RECORD_OF_B, observer));
        assertEquals(403, status(LISTING, observer));

        String analyst = signIn("analyst-1");
        assertEquals(200, status(LISTING, analyst));
        assertEquals(403, status(EXPLAIN, analyst));

        String administrator = signIn("admin-1");
        assertEquals(200, status(EXPLAIN, administrator));

        String nobody = signIn("no-role-1");
        assertEquals(200, status("/boards", nobody), "a valid token without a role is an anonymous caller");
        assertEquals(403, status(RECORD_OF_B, nobody));
    }

    @Test
    void aBackOfficeJobWithClientCredentialsIsAnAnalyst() throws Exception {
        String job = OidcLogin.clientCredentials(keycloak, REALM, KeycloakRealm.REPORTS_CLIENT, REPORTS_SECRET);
        assertEquals(200, status(LISTING, job));
        assertEquals(403, status(EXPLAIN, job));
    }

    @Test
    void aVoterSeesTheirOwnBallotsOnly() throws Exception {
        for (String user : List.of(VOTER_A, VOTER_B)) {
            String token = signIn(user.equals(VOTER_A) ? "voter-a" : "voter-b");
            assertEquals(user, SignedJWT.parse(token).getJWTClaimsSet().getSubject());
            HttpResponse<String> own = get(api, BALLOTS, token);
            assertEquals(200, own.statusCode(), own.body());
            JsonNode ballots = QueryApiTest.JSON.readTree(own.body()).get("ballots");
            assertEquals(BALLOTS_PER_VOTER, ballots.size(), own.body());
            for (JsonNode b : ballots) {
                assertEquals(user.equals(VOTER_A) ? 0 : 1, b.get("id").asLong() % 2, b.toString());
            }
            String other = user.equals(VOTER_A) ? VOTER_B : VOTER_A;
            assertEquals(403, status(BALLOTS + "&user_id=" + other, token));
            assertEquals(200, status(BALLOTS + "&user_id=" + user, token));
        }
    }

    /** The cast votes of {@link #BOARD}, for {@link QueryApiTest#load()} to publish. */
    static List<Statement> ballots() {
        List<Statement> out = new ArrayList<>();
        for (int i = 0; i < 2 * BALLOTS_PER_VOTER; i++) {
            out.add(Statement.newBuilder()
                    .setBoard(BOARD)
                    .setDeliveryId("oidc-" + i)
                    .setKind(StatementKind.CAST_VOTE)
                    .setStatementTimestamp(3_000_000 + i)
                    .setSenderName("voting-service")
                    .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                    .setUserId(i % 2 == 0 ? VOTER_A : VOTER_B)
                    .setElectionId("e1")
                    .setBallotId("oidc-ballot-" + i)
                    .build());
        }
        return out;
    }

    @Test
    void tokensForAnotherAudienceOrFromAnotherRealmAre401() throws Exception {
        String otherApp = signIn(REALM, "other-app", "analyst-1");
        assertFalse(SignedJWT.parse(otherApp).getJWTClaimsSet().getAudience().contains(KeycloakRealm.AUDIENCE));
        assertEquals(401, status(LISTING, otherApp));
        assertEquals(401, status("/boards", otherApp), "bad credentials are never anonymous");

        String otherRealm = signIn(OTHER_REALM, KeycloakRealm.PORTAL_CLIENT, "analyst-1");
        assertEquals(
                keycloak.issuer(OTHER_REALM),
                SignedJWT.parse(otherRealm).getJWTClaimsSet().getIssuer());
        assertEquals(401, status(LISTING, otherRealm));
    }

    @Test
    void anExpiredTokenIs401() throws Exception {
        String token = OidcLogin.clientCredentials(keycloak, REALM, SHORT_LIVED, REPORTS_SECRET);
        long expires = SignedJWT.parse(token)
                .getJWTClaimsSet()
                .getExpirationTime()
                .toInstant()
                .toEpochMilli();
        assertEquals(200, status(LISTING, token), "accepted while it lives");
        // the token's lifetime is the realm's setting: wait until it and the API's tolerance have passed
        long until = expires + (CLOCK_SKEW_SECONDS + 1) * 1000L;
        while (System.currentTimeMillis() < until) {
            Thread.sleep(until - System.currentTimeMillis());
        }
        assertEquals(401, status(LISTING, token), "refused once expired");
    }

    @Test
    void aRotatedKeyIsFollowedWithoutARestartAndTheRemovedKeyIsRefused() throws Exception {
        try (QueryApi rotating = startApi(ROTATION_REALM)) {
            String before = signIn(ROTATION_REALM, KeycloakRealm.PORTAL_CLIENT, "analyst-1");
            assertEquals(200, get(rotating, LISTING, before).statusCode());
            List<String> oldKeys = admin.signingKeyIds(ROTATION_REALM);

            admin.rotateSigningKey(ROTATION_REALM);
            List<String> newKeys = admin.signingKeyIds(ROTATION_REALM);
            assertTrue(newKeys.stream().noneMatch(oldKeys::contains), oldKeys + " " + newKeys);

            String after = signIn(ROTATION_REALM, KeycloakRealm.PORTAL_CLIENT, "analyst-1");
            String kid = SignedJWT.parse(after).getHeader().getKeyID();
            assertTrue(newKeys.contains(kid), kid + " " + newKeys);
            assertNotEquals(SignedJWT.parse(before).getHeader().getKeyID(), kid);
            assertEquals(200, get(rotating, LISTING, after).statusCode(), "the new key, fetched on its first use");
            assertEquals(401, get(rotating, LISTING, before).statusCode(), "the removed key's token");
        }
    }

    static String secret() {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
