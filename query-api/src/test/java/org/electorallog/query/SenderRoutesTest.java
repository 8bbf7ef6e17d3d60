package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.SigningKey;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The sender registry's admin endpoints (issue 15): grant, list, revoke, and their refusals. */
class SenderRoutesTest {
    @BeforeAll
    static void api() throws Exception {
        QueryApiTest.load();
    }

    @Test
    void anAdminGrantsListsAndRevokesASenderKey() throws Exception {
        String key = Base64.getEncoder().encodeToString(SigningKey.generate().publicKey());
        HttpResponse<String> made = post(
                "/admin/senders",
                "{\"public_key\":\"" + key + "\",\"sender_name\":\"voting-service\",\"board\":\"b1\","
                        + "\"kinds\":[\"CAST_VOTE\",\"CAST_VOTE_ERROR\"]}");
        assertEquals(201, made.statusCode(), made.body());
        JsonNode grant = QueryApiTest.JSON.readTree(made.body());
        long id = grant.get("grant_id").asLong();
        assertEquals(key, grant.get("public_key").asText());
        assertEquals(
                List.of("CAST_VOTE", "CAST_VOTE_ERROR"),
                List.of(
                        grant.get("kinds").get(0).asText(),
                        grant.get("kinds").get(1).asText()));
        assertTrue(grant.get("valid_until").isNull());
        assertTrue(grant.get("created_by").asText().startsWith("admin via static token"), grant.toString());

        JsonNode listed = QueryApiTest.JSON.readTree(
                QueryApiTest.get("/admin/senders", Role.ADMIN).body());
        assertTrue(listed.get("grants").toString().contains("\"grant_id\":" + id), listed.toString());

        Instant before = Instant.now();
        HttpResponse<String> revoked =
                post("/admin/senders/" + id + "/revocation", "{\"reason\":\"the service's key leaked\"}");
        Instant after = Instant.now();
        assertEquals(200, revoked.statusCode(), revoked.body());
        JsonNode r = QueryApiTest.JSON.readTree(revoked.body());
        assertEquals("the service's key leaked", r.get("revocation_reason").asText());
        // issue 61 item 5: it takes effect SETTLE after it was made, so it is committed before any statement it covers
        Instant until = Instant.parse(r.get("valid_until").asText());
        assertTrue(
                !until.isBefore(before.plus(org.electorallog.store.SenderGrants.SETTLE)
                                .minusMillis(1))
                        && !until.isAfter(after.plus(org.electorallog.store.SenderGrants.SETTLE)),
                until + " is not " + org.electorallog.store.SenderGrants.SETTLE + " after the request");

        QueryApiTest.assertError(
                409, post("/admin/senders/" + id + "/revocation", "{\"reason\":\"again\"}"), "already revoked");
        QueryApiTest.assertError(
                404, post("/admin/senders/987654321/revocation", "{\"reason\":\"x\"}"), "no sender grant");
    }

    @Test
    void badGrantsAreRefusedWithWhatToChange() throws Exception {
        String key = Base64.getEncoder().encodeToString(SigningKey.generate().publicKey());
        QueryApiTest.assertError(
                400,
                post(
                        "/admin/senders",
                        "{\"public_key\":\"" + key + "\",\"sender_name\":\"s\",\"board\":\"b\","
                                + "\"kinds\":[\"VOTE\"]}"),
                "'VOTE' is no statement kind");
        QueryApiTest.assertError(
                400,
                post(
                        "/admin/senders",
                        "{\"public_key\":\"AAAA\",\"sender_name\":\"s\",\"board\":\"b\"," + "\"kinds\":[\"*\"]}"),
                "32-byte Ed25519 public key");
        QueryApiTest.assertError(
                400,
                post(
                        "/admin/senders",
                        "{\"public_key\":\"" + key + "\",\"sender_name\":\"s\",\"board\":\"b\","
                                + "\"kinds\":[\"*\"],\"valid_from\":\"2020-01-01T00:00:00Z\"}"),
                "is in the past");
        QueryApiTest.assertError(400, post("/admin/senders", "[1,2]"), "not the JSON object");
        QueryApiTest.assertError(
                400,
                post("/admin/senders/1/revocation", "{\"reason\":\"r\",\"at\":\"2020-01-01T00:00:00Z\"}"),
                "now or later");
        QueryApiTest.assertError(400, post("/admin/senders/1/revocation", "{}"), "reason is required");
    }

    @Test
    void withoutTheRegistrarLoginWritesAnswer503() throws Exception {
        var db = org.electorallog.infra.SharedStack.get().database();
        try (QueryApi bare = QueryApi.start(
                QueryApiSettings.publicOnly(new DatabaseLogin(db.jdbcUrl(), "electoral_log_query_api", ""), 0)
                        .withAccess(new AccessSettings(
                                QueryApiTest.TOKENS,
                                QueryApiTest.VOTER_USER,
                                null,
                                java.util.Set.of(),
                                java.util.Set.of(),
                                List.of())))) {
            HttpResponse<String> r = QueryApiTest.HTTP.send(
                    HttpRequest.newBuilder(URI.create(bare.baseUrl() + "/admin/senders"))
                            .header("Authorization", "Bearer " + QueryApiTest.TOKENS.get(Role.ADMIN))
                            .POST(HttpRequest.BodyPublishers.ofString("{\"public_key\":\""
                                    + Base64.getEncoder().encodeToString(new byte[32])
                                    + "\",\"sender_name\":\"s\",\"board\":\"b\",\"kinds\":[\"*\"]}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            QueryApiTest.assertError(503, r, "ELECTORAL_LOG_REGISTRAR_DB_USER");
        }
    }

    static HttpResponse<String> post(String path, String body) throws Exception {
        return QueryApiTest.HTTP.send(
                HttpRequest.newBuilder(URI.create(QueryApiTest.api.baseUrl() + path))
                        .header("Authorization", "Bearer " + QueryApiTest.TOKENS.get(Role.ADMIN))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
