package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * OpenID Connect bearer tokens against a JWKS this test serves, as Keycloak issues them (roles in
 * {@code realm_access.roles}, the voter's user ID in {@code sub}): a good token gets its role; an
 * expired one, another issuer's, another audience's, one signed by an unknown key, an unsigned one
 * ({@code alg: none}) are 401; a good token without the role is 403; a voter cannot ask for another
 * voter's ballots.
 */
class OidcTest {
    static final String ISSUER = "https://idp.test/realms/election";
    static final String AUDIENCE = "electoral-log";
    static RSAKey key;
    static RSAKey stranger;
    static HttpServer jwks;
    static QueryApi api;

    @BeforeAll
    static void start() throws Exception {
        QueryApiTest.load();
        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        stranger = new RSAKeyGenerator(2048).keyID("k2").generate();
        byte[] keys = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
        jwks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        jwks.createContext("/certs", ex -> {
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, keys.length);
            ex.getResponseBody().write(keys);
            ex.close();
        });
        jwks.start();
        DatabaseLogin db = SharedStack.get().database();
        AccessSettings.Oidc oidc = new AccessSettings.Oidc(
                ISSUER,
                "http://127.0.0.1:" + jwks.getAddress().getPort() + "/certs",
                AUDIENCE,
                "realm_access.roles",
                "sub");
        api = QueryApi.start(QueryApiSettings.publicOnly(db, 0)
                .withAccess(new AccessSettings(Map.of(), null, oidc, Set.of(), Set.of(), List.of())));
    }

    @AfterAll
    static void stop() {
        api.close();
        jwks.stop(0);
    }

    static JWTClaimsSet.Builder claims(String subject, String... roles) {
        return new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject(subject)
                .issueTime(new Date())
                .expirationTime(new Date(System.currentTimeMillis() + 300_000))
                .claim("realm_access", Map.of("roles", List.of(roles)));
    }

    static String sign(JWTClaimsSet claims, RSAKey with) throws Exception {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID(with.getKeyID())
                        .type(JOSEObjectType.JWT)
                        .build(),
                claims);
        jwt.sign(new RSASSASigner(with));
        return jwt.serialize();
    }

    static int status(String path, String token) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(api.baseUrl() + path)).GET();
        b.header("Authorization", "Bearer " + token);
        return QueryApiTest.HTTP
                .send(b.build(), HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    static final String LISTING = "/admin/boards/" + QueryApiTest.BOARD + "/records?limit=1";

    @Test
    void aGoodTokenCarriesItsRole() throws Exception {
        assertEquals(200, status(LISTING, sign(claims("analyst-1", "analyst").build(), key)));
        assertEquals(
                200,
                status(
                        LISTING,
                        sign(claims("admin-1", "offline_access", "admin").build(), key)));
    }

    @Test
    void tokensThatDoNotHoldAre401() throws Exception {
        JWTClaimsSet expired = claims("analyst-1", "analyst")
                .expirationTime(new Date(System.currentTimeMillis() - 600_000))
                .build();
        assertEquals(401, status(LISTING, sign(expired, key)), "expired");
        assertEquals(
                401,
                status(
                        LISTING,
                        sign(
                                claims("analyst-1", "analyst")
                                        .issuer("https://evil.test")
                                        .build(),
                                key)),
                "another issuer");
        assertEquals(
                401,
                status(
                        LISTING,
                        sign(
                                claims("analyst-1", "analyst")
                                        .audience("other-app")
                                        .build(),
                                key)),
                "another audience");
        assertEquals(401, status(LISTING, sign(claims("analyst-1", "analyst").build(), stranger)), "an unknown key");
        assertEquals(
                401, status(LISTING, new PlainJWT(claims("analyst-1", "analyst").build()).serialize()), "alg none");
        assertEquals(401, status("/boards", "not.a.jwt"), "garbage, even on a public route");
    }

    @Test
    void aGoodTokenWithoutTheRoleIs403() throws Exception {
        String observer = sign(claims("observer-1", "observer").build(), key);
        assertEquals(403, status(LISTING, observer));
        assertEquals(200, status("/boards/" + QueryApiTest.BOARD + "/records/8", observer));
        String nobody = sign(claims("someone").build(), key);
        assertEquals(403, status("/boards/" + QueryApiTest.BOARD + "/records/8", nobody));
        assertEquals(200, status("/boards", nobody));
    }

    @Test
    void aVoterSeesTheirOwnBallotsOnly() throws Exception {
        String voter = sign(claims("user-7", "voter").build(), key);
        String ballots = "/boards/" + QueryApiTest.BOARD + "/ballots?election_id=e1";
        assertEquals(200, status(ballots, voter));
        assertEquals(200, status(ballots + "&user_id=user-7", voter));
        assertEquals(403, status(ballots + "&user_id=user-8", voter));
        assertEquals(200, status("/boards/" + QueryApiTest.BOARD + "/records/7", voter));
        assertEquals(403, status("/boards/" + QueryApiTest.BOARD + "/records/8", voter));
    }
}
