package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.SigningKey;
import org.electorallog.infra.SharedStack;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 41 against a running query API: what a penetration test sent, class by class (the table of
 * docs/security.md "Hostile callers"), each answered as a person or a cache must be answered. The
 * witness's classes are in witness's WitnessServerTest, the hostile events in projector's
 * HostileSchemasTest and HostileInputTest.
 */
class HostileCallersTest {
    static final String BOARD = QueryApiTest.BOARD;
    static DatabaseLogin db;

    @BeforeAll
    static void load() throws Exception {
        QueryApiTest.load();
        db = SharedStack.get().database();
    }

    /** An API with the shared one's tokens and data and the given limits. */
    static QueryApi start(RatePolicy limits) {
        return QueryApi.start(
                QueryApiSettings.publicOnly(new DatabaseLogin(db.jdbcUrl(), "electoral_log_query_api", ""), 0)
                        .withHttp(HttpSettings.defaults().withLimits(limits))
                        .withAccess(new AccessSettings(
                                QueryApiTest.TOKENS, QueryApiTest.VOTER_USER, null, Set.of(), Set.of(), List.of())));
    }

    static HttpResponse<String> get(QueryApi api, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api.baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return QueryApiTest.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String token(Role role) {
        return QueryApiTest.TOKENS.get(role);
    }

    static void assertLimited(HttpResponse<String> r, String what) {
        assertEquals(429, r.statusCode(), what + ": " + r.body());
        assertTrue(Long.parseLong(r.headers().firstValue("Retry-After").orElseThrow()) >= 1, what);
    }

    /**
     * One policy per route class, for every role and every spelling of a path: a voter's proofs, a
     * trailing slash and a proof by leaf hash count as proofs; tiles, ballot bundles, reads and
     * admin reads each have their own; refused tokens are counted, and past them even a good token
     * waits.
     */
    @Test
    void everyRouteClassIsLimitedForEveryRoleAndSpelling() throws Exception {
        try (QueryApi api = start(RatePolicy.everyClass(3))) {
            String leaf = QueryApiTest.enc(Base64.getEncoder().encodeToString(QueryApiTest.LEAVES.get(2)));
            assertEquals(
                    200,
                    get(api, "/boards/" + BOARD + "/records/1/proof", token(Role.VOTER))
                            .statusCode());
            assertEquals(
                    200,
                    get(api, "/boards/" + BOARD + "/records/1/proof/", null).statusCode());
            assertEquals(
                    200,
                    get(api, "/boards/" + BOARD + "/proof?leaf_hash=" + leaf, token(Role.ADMIN))
                            .statusCode());
            assertLimited(get(api, "/boards/" + BOARD + "/records/2/proof/", token(Role.OBSERVER)), "a 4th proof");
            assertLimited(get(api, "/boards/" + BOARD + "/consistency/?from=1", token(Role.VOTER)), "consistency");

            threeThenLimited(api, "/boards/" + BOARD + "/tile/0/000", token(Role.ADMIN), 200);
            assertLimited(get(api, "/boards/" + BOARD + "/tile/0/001", null), "a 4th tile");
            String ballots = "/boards/" + BOARD + "/ballots?election_id=e1";
            threeThenLimited(api, ballots, token(Role.VOTER), 200);
            assertLimited(get(api, ballots, token(Role.VOTER)), "a 4th ballot page");
            threeThenLimited(api, "/boards/" + BOARD + "/checkpoint", token(Role.ANALYST), 200);
            assertLimited(get(api, "/boards", null), "a 4th read");
            String counts = "/admin/boards/" + BOARD + "/counts";
            threeThenLimited(api, counts, token(Role.ANALYST), 200);
            assertLimited(get(api, counts, token(Role.ADMIN)), "a 4th admin read");
            for (int i = 0; i < 3; i++) {
                assertEquals(
                        401, get(api, "/health", "not-a-token-of-this-api-" + i).statusCode());
            }
            assertLimited(get(api, "/health", "not-a-token-of-this-api-3"), "a 4th refused token");
            assertLimited(get(api, "/health", token(Role.ADMIN)), "a good token after 3 refused ones");
            assertEquals(200, get(api, "/health", null).statusCode(), "without a token nothing is checked");
        }
    }

    /** Three requests of one class, each answered {@code status} (the class's whole minute at 3). */
    static void threeThenLimited(QueryApi api, String path, String token, int status) throws Exception {
        for (int i = 0; i < 3; i++) {
            assertEquals(status, get(api, path, token).statusCode(), path);
        }
    }

    /** Tile and bundle paths beyond any tree are 404, never another tile's content nor a 500. */
    @Test
    void tilePathsBeyondAnyTreeAre404() throws Exception {
        QueryApi api = QueryApiTest.api;
        String index = "x072/x057/x594/x037/x927/936"; // 2^56: index * 256 overflowed to 0
        for (String path : List.of(
                "/tile/0/" + index + ".p/1",
                "/tile/0/" + index,
                "/tile/entries/" + index,
                "/tile/entries/" + index + ".p/1",
                "/tile/7/x036/x028/x797/x018/x963/967",
                "/tile/0/x036/x028/x797/x018/x963/x968/x000/000")) {
            HttpResponse<String> r = get(api, "/boards/" + BOARD + path, token(Role.OBSERVER));
            assertTrue(r.statusCode() == 404 || r.statusCode() == 400, path + ": " + r.statusCode() + " " + r.body());
            assertFalse(r.headers().firstValue("Cache-Control").orElse("").contains("immutable"), path);
        }
        assertEquals(
                200,
                get(api, "/boards/" + BOARD + "/tile/entries/000", token(Role.OBSERVER))
                        .statusCode());
    }

    /**
     * Path, header and body classes of our own: encoded slashes and NUL in a board name, a proof
     * bundle of the largest record ID, a forwarded hop that is a host name (never looked up), and
     * JSON of the wrong shape: each a 4xx that says why, never a 500.
     */
    @Test
    void pathHeaderAndBodyClassesOfOurOwnAre4xx() throws Exception {
        QueryApi api = QueryApiTest.api;
        for (String path : List.of(
                "/boards/..%2F..%2Fadmin/checkpoint",
                "/boards/api-board%00/checkpoint",
                "/boards/" + "b".repeat(300) + "/checkpoint",
                "/boards/" + BOARD + "/records/9223372036854775807/proof-bundle",
                "/boards/" + BOARD + "/records/-1/proof",
                "/boards/" + BOARD + "/records/99999999999999999999/proof",
                "/boards/" + BOARD + "/consistency?from=9223372036854775807",
                "/boards/" + BOARD + "/proof?leaf_hash=%25ZZ%00")) {
            HttpResponse<String> r = get(api, path, token(Role.OBSERVER));
            assertTrue(r.statusCode() >= 400 && r.statusCode() < 500, path + ": " + r.statusCode() + " " + r.body());
        }
        HttpResponse<String> forwarded = QueryApiTest.HTTP.send(
                HttpRequest.newBuilder(URI.create(api.baseUrl() + "/boards"))
                        .header("X-Forwarded-For", "attacker.example, ::1, not an address")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, forwarded.statusCode(), forwarded.body());
        for (String body : List.of("", "[]", "null", "{\"kinds\": \"CAST_VOTE\"}", "{\"public_key\": 5}", "{")) {
            HttpResponse<String> r = SenderRoutesTest.post("/admin/senders", body);
            assertEquals(400, r.statusCode(), body + ": " + r.body());
        }
    }

    /** Admin bodies are validated to a 400 that names the field; none reaches a 500. */
    @Test
    void adminBodiesAreRefusedNamingTheField() throws Exception {
        String key = Base64.getEncoder().encodeToString(SigningKey.generate().publicKey());
        Map<String, String> bodies = Map.of(
                "kinds",
                "{\"public_key\":\"" + key + "\",\"sender_name\":\"s\",\"board\":\"b1\",\"kinds\":[null]}",
                "valid_until",
                "{\"public_key\":\"" + key + "\",\"sender_name\":\"s\",\"board\":\"b1\",\"kinds\":[\"CAST_VOTE\"],"
                        + "\"valid_until\":\"+1000000000-01-01T00:00:00Z\"}",
                "board",
                "{\"public_key\":\"" + key + "\",\"sender_name\":\"s\",\"board\":\"Not A Board\",\"kinds\":[\"*\"]}");
        for (Map.Entry<String, String> e : bodies.entrySet()) {
            HttpResponse<String> r = SenderRoutesTest.post("/admin/senders", e.getValue());
            assertEquals(400, r.statusCode(), e.getKey() + ": " + r.body());
            assertTrue(r.body().contains(e.getKey()), e.getKey() + " named: " + r.body());
        }
        // the log's own statements: no grant covers them (issue 61 item 1), so none may be made
        for (String body : List.of(
                "{\"public_key\":\"" + key
                        + "\",\"sender_name\":\"s\",\"board\":\"heads\",\"kinds\":[\"LOG_CHECKPOINT\"]}",
                "{\"public_key\":\"" + key + "\",\"sender_name\":\"s\",\"board\":\"*\",\"kinds\":[\"BOARD_SEALED\"]}",
                "{\"public_key\":\"" + key
                        + "\",\"sender_name\":\"s\",\"board\":\"b1\",\"kinds\":[\"PERSONAL_DATA_ERASED\"]}")) {
            HttpResponse<String> r = SenderRoutesTest.post("/admin/senders", body);
            assertEquals(400, r.statusCode(), body + ": " + r.body());
            assertTrue(r.body().contains("the log's own"), r.body());
        }
        HttpResponse<String> revoke = SenderRoutesTest.post(
                "/admin/senders/1/revocation", "{\"at\":\"+1000000000-01-01T00:00:00Z\",\"reason\":\"x\"}");
        assertEquals(400, revoke.statusCode(), revoke.body());
    }

    /** Small leaks: a record's kind, /metrics, the identity provider's reasons, duplicate tokens, plain-HTTP keys. */
    @Test
    void noSmallLeaks() throws Exception {
        HttpResponse<String> record = QueryApiTest.get("/boards/" + BOARD + "/records/0");
        assertEquals(401, record.statusCode(), record.body());
        assertFalse(record.body().contains("CAST_VOTE"), "the kind is not named: " + record.body());
        assertEquals(401, QueryApiTest.get("/metrics").statusCode(), "without an admin port /metrics needs the admin");

        IllegalArgumentException twice = assertThrows(
                IllegalArgumentException.class,
                () -> new AccessSettings(
                        Map.of(Role.ANALYST, "same-token-0123456789", Role.ADMIN, "same-token-0123456789"),
                        null,
                        null,
                        Set.of(),
                        Set.of(),
                        List.of()));
        assertTrue(twice.getMessage().contains("same static token"), twice.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> new AccessSettings.Oidc("https://idp", "http://idp.example/certs", "aud", "roles", "sub"));
        new AccessSettings.Oidc("https://idp", "http://127.0.0.1:9/certs", "aud", "roles", "sub");
        assertThrows(
                IllegalArgumentException.class,
                () -> new AccessSettings(Map.of(), null, null, Set.of(), Set.of(), List.of("10.0.0.0/33")));

        AccessSettings.Oidc oidc = new AccessSettings.Oidc(
                "https://idp.test/realms/election", "http://127.0.0.1:9/certs", "electoral-log", "roles", "sub");
        try (QueryApi api = QueryApi.start(QueryApiSettings.publicOnly(db, 0)
                .withAccess(new AccessSettings(Map.of(), null, oidc, Set.of(), Set.of(), List.of())))) {
            HttpResponse<String> r = get(api, "/boards", "eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4In0.");
            assertEquals(401, r.statusCode(), r.body());
            assertTrue(r.body().contains("the bearer token does not hold (expired"), r.body());
            assertFalse(r.body().toLowerCase(java.util.Locale.ROOT).contains("jws"), "no library message: " + r.body());
        }
    }

    /**
     * Exports run on their own pool with their own concurrency: while one is held (here by a lock on
     * records, as a slow client would hold it), a second is refused with 429 at once, and reads that
     * share the listing pool go on.
     */
    @Test
    void exportsHaveTheirOwnConcurrencyAndDoNotStarveOtherReads() throws Exception {
        try (QueryApi api = start(RatePolicy.unlimited().withExports(1, Duration.ofSeconds(5)));
                Connection lock = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            lock.setAutoCommit(false);
            lock.createStatement().execute("LOCK TABLE records IN ACCESS EXCLUSIVE MODE");
            String export = "/admin/boards/" + BOARD + "/export.jsonl";
            CompletableFuture<HttpResponse<String>> held = QueryApiTest.HTTP.sendAsync(
                    HttpRequest.newBuilder(URI.create(api.baseUrl() + export))
                            .header("Authorization", "Bearer " + token(Role.ANALYST))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            awaitWaitingOnALock();
            HttpResponse<String> second = get(api, export, token(Role.ADMIN));
            assertLimited(second, "a second export");
            assertTrue(second.body().contains("ELECTORAL_LOG_EXPORT_CONCURRENCY"), second.body());
            assertEquals(200, get(api, "/boards", null).statusCode(), "reads go on beside the export");
            lock.rollback();
            HttpResponse<String> first = held.get(60, TimeUnit.SECONDS);
            assertEquals(200, first.statusCode(), first.body());
            long size = QueryApiTest.JSON
                    .readTree(first.body().lines().findFirst().orElseThrow())
                    .get("manifest")
                    .get("size")
                    .asLong();
            assertEquals(size + 1, first.body().lines().count(), "the manifest and every record");
        }
    }

    /**
     * An export whose client reads nothing is cut off by the write timeout and frees its slot: a
     * second export is refused (429) while the stalled one holds the only slot, then served.
     */
    @Test
    void anExportWhoseClientReadsNothingIsCutOffAndFreesItsSlot() throws Exception {
        try (QueryApi api = start(RatePolicy.unlimited().withExports(1, Duration.ofSeconds(1)));
                java.net.Socket stalled = new java.net.Socket()) {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new java.net.InetSocketAddress("127.0.0.1", api.port()));
            stalled.getOutputStream()
                    .write(("GET /admin/boards/" + QueryApiTest.BIG_BOARD + "/export.jsonl HTTP/1.1\r\nHost: api\r\n"
                                    + "Authorization: Bearer " + token(Role.ANALYST) + "\r\n\r\n")
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            // its status line says the export has begun, inside its slot; the rest stays unread
            assertEquals("HTTP/1.1 200 OK", statusLine(stalled.getInputStream()));
            String other = "/admin/boards/" + BOARD + "/counts"; // not an export: never waits for a slot
            String export = "/admin/boards/" + BOARD + "/export.csv";
            assertEquals(429, awaitStatus(api, export, 429), "the stalled export takes the only slot");
            assertEquals(200, get(api, other, token(Role.ADMIN)).statusCode());
            assertEquals(200, awaitStatus(api, export, 200), "the write timeout gives the slot back");
        }
    }

    /** The first line of a raw HTTP answer, read byte by byte so that nothing after it is read. */
    static String statusLine(java.io.InputStream in) throws java.io.IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        return line.toString().strip();
    }

    /**
     * Polls an export until it answers {@code status} (15 s at most, well past the 1 s write timeout
     * and short of Jetty's 30 s default idle timeout); the answer is the condition.
     */
    static int awaitStatus(QueryApi api, String path, int status) throws Exception {
        return Poll.until(
                Duration.ofSeconds(15),
                path + " to answer " + status,
                () -> get(api, path, token(Role.ADMIN)).statusCode(),
                answered -> answered == status);
    }

    /**
     * Polls PostgreSQL until a session of an exports pool waits on a lock: the held export is then
     * inside its slot.
     */
    static void awaitWaitingOnALock() throws Exception {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            Poll.until(Duration.ofSeconds(30), "the export to wait on the records' lock", () -> {
                try (ResultSet rs = c.createStatement()
                        .executeQuery("SELECT count(*) FROM pg_stat_activity "
                                + "WHERE application_name = 'query-api-exports' AND wait_event_type = 'Lock'")) {
                    assertTrue(rs.next());
                    return rs.getLong(1) > 0;
                }
            });
        }
    }
}
