package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteVerifier;
import org.electorallog.infra.SharedStack;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The admin endpoints: bearer-token enforcement, an audit started over HTTP, the incremental verifier's status. */
class AdminTest {
    static final String TOKEN = "admin-token-0123456789abcdef";
    static QueryApi admin;

    @BeforeAll
    static void start() throws Exception {
        QueryApiTest.load();
        DatabaseLogin db = SharedStack.get().database();
        admin = QueryApi.start(QueryApiSettings.publicOnly(db, 0)
                .withAdminToken(TOKEN)
                .withLogKeys(List.of(NoteVerifier.parse(QueryApiTest.SIGNER.verifierKey())))
                .withVerifier(Duration.ofMillis(200), Duration.ofHours(1))
                .withHttp(HttpSettings.defaults().withLimits(RatePolicy.unlimited())));
    }

    @AfterAll
    static void stop() {
        admin.close();
    }

    static HttpResponse<String> call(QueryApi api, String method, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api.baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        // a client of its own per call: the token under test must be exactly what is sent
        return java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .build()
                .send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theLogsVerifierKeysArePublic() throws Exception {
        HttpResponse<String> keys = call(admin, "GET", "/log-keys", null);
        assertEquals(200, keys.statusCode(), keys.body());
        assertEquals(QueryApiTest.SIGNER.verifierKey() + "\n", keys.body());
        assertEquals(404, call(QueryApiTest.api, "GET", "/log-keys", null).statusCode(), "none configured");
    }

    @Test
    void adminEndpointsNeedTheToken() throws Exception {
        String path = "/admin/boards/" + QueryApiTest.BOARD + "/audits";
        HttpResponse<String> none = call(admin, "POST", path, null);
        assertEquals(401, none.statusCode());
        assertTrue(none.headers().firstValue("www-authenticate").orElse("").startsWith("Bearer"));
        assertEquals(401, call(admin, "POST", path, TOKEN + "x").statusCode());
        HttpResponse<String> wrongCase = call(admin, "GET", "/admin/verifier", "admin-token-0123456789abcdeF");
        assertEquals(401, wrongCase.statusCode(), wrongCase.body());
        // a token the instance does not know is no credential at all: 401 (docs/security.md)
        HttpResponse<String> unknown = call(QueryApiTest.api, "POST", path, TOKEN);
        assertEquals(401, unknown.statusCode());
        // a known token of a role below the route's: 403
        assertEquals(
                403,
                call(QueryApiTest.api, "POST", path, QueryApiTest.TOKENS.get(Role.ANALYST))
                        .statusCode());
        assertTrue(unknown.body().contains("not one this instance accepts"), unknown.body());
    }

    @Test
    void anAuditStartedOverHttpReportsProgressThenClean() throws Exception {
        HttpResponse<String> started = call(admin, "POST", "/admin/boards/" + QueryApiTest.BOARD + "/audits", TOKEN);
        assertEquals(202, started.statusCode(), started.body());
        String status = QueryApiTest.JSON.readTree(started.body()).get("status").asText();
        JsonNode s = await(status, "done");
        assertEquals("clean", s.get("verdict").asText(), s.toString());
        assertEquals(QueryApiTest.N, s.get("checked").asLong());
        JsonNode result = QueryApiTest.JSON.readTree(s.get("result").asText());
        assertEquals(QueryApiTest.N, result.get("records_checked").asLong());

        HttpResponse<String> unknown = call(admin, "POST", "/admin/boards/no-such-board/audits", TOKEN);
        JsonNode failed =
                await(QueryApiTest.JSON.readTree(unknown.body()).get("status").asText(), "failed");
        assertTrue(failed.get("error").asText().contains("no board named"), failed.toString());
        assertEquals(404, call(admin, "GET", "/admin/audits/nope", TOKEN).statusCode());
    }

    static JsonNode await(String path, String state) throws Exception {
        JsonNode s = Poll.until(
                Duration.ofSeconds(60),
                "the audit at " + path + " to reach " + state,
                () -> QueryApiTest.JSON.readTree(call(admin, "GET", path, TOKEN).body()),
                a -> a.get("state").asText().equals(state)
                        || a.get("state").asText().equals("failed"));
        assertEquals(state, s.get("state").asText(), s.toString());
        return s;
    }

    @Test
    void theVerifierStatusShowsTheBoardVerified() throws Exception {
        JsonNode s = Poll.until(
                Duration.ofSeconds(60),
                "the verifier to verify the board",
                () -> QueryApiTest.JSON.readTree(
                        call(admin, "GET", "/admin/verifier", TOKEN).body()),
                v -> v.get("boards").has(QueryApiTest.BOARD)
                        && v.get("boards")
                                        .get(QueryApiTest.BOARD)
                                        .get("verified_size")
                                        .asLong()
                                == QueryApiTest.N);
        assertEquals(0, s.get("problems").asLong(), s.toString());
    }

    @Test
    void countsComeFromTheCounters() throws Exception {
        JsonNode c =
                QueryApiTest.JSON.readTree(call(admin, "GET", "/admin/boards/" + QueryApiTest.BOARD + "/counts", TOKEN)
                        .body());
        assertEquals(QueryApiTest.N, c.get("total").asLong(), c.toString());
        assertEquals(QueryApiTest.N, c.get("by_kind").get("CAST_VOTE").asLong());
        long sum = 0;
        for (String e : new String[] {"e0", "e1", "e2"}) {
            long expected = (QueryApiTest.N + 2 - Integer.parseInt(e.substring(1))) / 3;
            assertEquals(
                    expected,
                    c.get("by_election_and_kind").get(e).get("CAST_VOTE").asLong(),
                    e);
            sum += expected;
        }
        assertEquals(QueryApiTest.N, sum);
        assertEquals(
                401,
                call(admin, "GET", "/admin/boards/" + QueryApiTest.BOARD + "/counts", null)
                        .statusCode());
    }
}
