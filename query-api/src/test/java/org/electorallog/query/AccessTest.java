package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.IdentityProviderUserEvent;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Who may read what (docs/security.md), against the real server: every route of the OpenAPI
 * document called as each role; the voter's own-records rule; no personal value in any anonymous
 * answer; CSV cells that a spreadsheet would run are neutralised; the client behind trusted proxies.
 */
class AccessTest {
    /** The board whose statements carry distinctive personal values (published by QueryApiTest.load). */
    static final String PRIVATE_BOARD = "api-private";
    /** A board of one vote in the committed form (issue 46) holding the same personal values. */
    static final String COMMITTED_BOARD = "api-private-committed";

    /** Values that must never reach an anonymous caller. */
    static final List<String> PERSONAL = List.of(
            "PRIVATE-USER-5e1a",
            "private.person.5e1a@example.org",
            "PRIVATE-AREA-5e1a",
            "PRIVATE-BALLOT-5e1a",
            "203.0.113.77",
            "PRIVATE-ERROR-5e1a",
            "PRIVATE-COUNTRY-5e1a");

    /** The least role of every documented operation; a new route must be added here. */
    static final Map<String, Role> LEAST = new TreeMap<>(Map.ofEntries(
            Map.entry("GET /health", Role.ANONYMOUS),
            Map.entry("GET /health/live", Role.ANONYMOUS),
            Map.entry("GET /health/ready", Role.ANONYMOUS),
            Map.entry("GET /metrics", Role.ADMIN),
            Map.entry("GET /log-keys", Role.ANONYMOUS),
            Map.entry("GET /openapi.json", Role.ANONYMOUS),
            Map.entry("GET /voter", Role.ANONYMOUS),
            Map.entry("GET /voter/i18n.js", Role.ANONYMOUS),
            Map.entry("GET /voter/messages.json", Role.ANONYMOUS),
            Map.entry("GET /voter/voter.js", Role.ANONYMOUS),
            Map.entry("GET /voter/personal.js", Role.ANONYMOUS),
            Map.entry("GET /voter/heads.js", Role.ANONYMOUS),
            Map.entry("GET /voter/tiles.js", Role.ANONYMOUS),
            Map.entry("GET /voter/pq.js", Role.ANONYMOUS),
            Map.entry("GET /voter/vendor/{path}", Role.ANONYMOUS),
            Map.entry("GET /voter/voter.css", Role.ANONYMOUS),
            Map.entry("GET /voter/trust.json", Role.ANONYMOUS),
            Map.entry("GET /boards", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/checkpoint", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/policy", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/tile/{path}", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/tile/entries/{path}", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/signatures/{path}", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/records/{id}", Role.OBSERVER),
            Map.entry("GET /boards/{board}/records/{id}/proof", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/proof", Role.ANONYMOUS),
            Map.entry("POST /boards/{board}/records/{id}/proof", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/records/{id}/proof-bundle", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/heads-link", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/deliveries", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/consistency", Role.ANONYMOUS),
            Map.entry("GET /boards/{board}/ballots", Role.VOTER),
            Map.entry("GET /admin/boards/{board}/records", Role.ANALYST),
            Map.entry("GET /admin/boards/{board}/records/count", Role.ANALYST),
            Map.entry("GET /admin/boards/{board}/counts", Role.ANALYST),
            Map.entry("GET /admin/boards/{board}/export.csv", Role.ANALYST),
            Map.entry("GET /admin/boards/{board}/export.jsonl", Role.ANALYST),
            Map.entry("GET /admin/boards/{board}/export.parquet.zip", Role.ANALYST),
            Map.entry("GET /admin/boards/{board}/votes.jsonl", Role.ANALYST),
            Map.entry("GET /admin/boards/{board}/records/explain", Role.ADMIN),
            Map.entry("GET /admin/boards/{board}/records/count/explain", Role.ADMIN),
            Map.entry("POST /admin/boards/{board}/audits", Role.ADMIN),
            Map.entry("GET /admin/audits/{id}", Role.ADMIN),
            Map.entry("GET /admin/verifier", Role.ADMIN),
            Map.entry("GET /admin/senders", Role.ADMIN),
            Map.entry("POST /admin/senders", Role.ADMIN),
            Map.entry("POST /admin/senders/{grant}/revocation", Role.ADMIN)));

    private static JsonNode doc;

    @BeforeAll
    static void load() throws Exception {
        QueryApiTest.load();
        doc = QueryApiTest.JSON.readTree(QueryApiTest.get("/openapi.json").body());
    }

    /** The vote of {@link #COMMITTED_BOARD}, its personal fields to be committed to by the producer. */
    static Statement committedVote() {
        return Statement.newBuilder()
                .setBoard(COMMITTED_BOARD)
                .setDeliveryId("committed-vote")
                .setKind(StatementKind.CAST_VOTE)
                .setStatementTimestamp(1_796_000_000_000L)
                .setSenderName("voting-service")
                .setSenderPublicKey(ByteBuffer.allocate(0))
                .setUserId(PERSONAL.get(0))
                .setUsername(PERSONAL.get(1))
                .setElectionId("e1")
                .setAreaId("area-1")
                .setBallotId("committed-ballot")
                .setBody(CastVote.newBuilder()
                        .setElectionId("e1")
                        .setPseudonymHash(ByteBuffer.wrap(new byte[32]))
                        .setCastVoteHash(ByteBuffer.wrap(new byte[32]))
                        .setIp(PERSONAL.get(4))
                        .setCountry(PERSONAL.get(6))
                        .build())
                .build();
    }

    /** Statements of {@link #PRIVATE_BOARD} holding every personal value, in columns and in bodies. */
    static List<Statement> personalStatements() {
        Statement.Builder common = Statement.newBuilder()
                .setBoard(PRIVATE_BOARD)
                .setSenderName("voting-service")
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                .setUserId(PERSONAL.get(0))
                .setUsername(PERSONAL.get(1))
                .setElectionId("e1")
                .setAreaId(PERSONAL.get(2));
        List<Statement> out = new ArrayList<>();
        out.add(Statement.newBuilder(common)
                .setDeliveryId("private-login")
                .setKind(StatementKind.IDP_USER_EVENT)
                .setStatementTimestamp(2_000_000)
                .setBody(IdentityProviderUserEvent.newBuilder()
                        .setEventType("LOGIN_ERROR")
                        .setError(PERSONAL.get(5))
                        .setIp(PERSONAL.get(4))
                        .setClientId("voting-portal")
                        .build())
                .build());
        out.add(Statement.newBuilder(common)
                .setDeliveryId("private-vote")
                .setKind(StatementKind.CAST_VOTE)
                .setStatementTimestamp(2_000_001)
                .setBallotId(PERSONAL.get(3))
                .setBody(CastVote.newBuilder()
                        .setElectionId("e1")
                        .setPseudonymHash(ByteBuffer.wrap(new byte[32]))
                        .setCastVoteHash(ByteBuffer.wrap(new byte[32]))
                        .setIp(PERSONAL.get(4))
                        .setCountry(PERSONAL.get(6))
                        .build())
                .build());
        // a value a spreadsheet would run as a formula, for the CSV export
        out.add(Statement.newBuilder(common)
                .setDeliveryId("private-formula")
                .setKind(StatementKind.IDP_USER_EVENT)
                .setStatementTimestamp(2_000_002)
                .setUsername("=HYPERLINK(\"http://attacker.example\",\"x\")")
                .setBody(IdentityProviderUserEvent.newBuilder()
                        .setEventType("LOGIN")
                        .build())
                .build());
        return out;
    }

    @Test
    void everyDocumentedRouteAnswersEachRoleAsItsLeastRoleSays() throws Exception {
        List<String> wrong = new ArrayList<>();
        List<String> documented = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.get("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> p = paths.next();
            for (Iterator<String> m = p.getValue().fieldNames(); m.hasNext(); ) {
                String method = m.next().toUpperCase(java.util.Locale.ROOT);
                documented.add(method + " " + p.getKey());
            }
        }
        assertEquals(
                new java.util.TreeSet<>(LEAST.keySet()),
                new java.util.TreeSet<>(documented),
                "every documented operation has its least role in this test");
        for (String operation : documented) {
            Role least = LEAST.get(operation);
            for (Role role : Role.values()) {
                HttpResponse<String> r = call(operation, role);
                int status = r.statusCode();
                boolean allowed = role.covers(least);
                if (allowed && (status == 401 || status == 403 || status >= 500)) {
                    wrong.add(operation + " as " + role + ": " + status + " " + r.body());
                } else if (!allowed && status != (role == Role.ANONYMOUS ? 401 : 403)) {
                    wrong.add(operation + " as " + role + ": expected " + (role == Role.ANONYMOUS ? 401 : 403)
                            + ", got " + status + " " + r.body());
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void aVoterReadsTheirOwnRecordsAndBallotsOnly() throws Exception {
        // user-7 cast the votes 7, 57, 107, ... on the shared board
        assertEquals(
                200,
                QueryApiTest.get("/boards/" + QueryApiTest.BOARD + "/records/7", Role.VOTER)
                        .statusCode());
        assertEquals(
                403,
                QueryApiTest.get("/boards/" + QueryApiTest.BOARD + "/records/8", Role.VOTER)
                        .statusCode());
        HttpResponse<String> own =
                QueryApiTest.get("/boards/" + QueryApiTest.BOARD + "/ballots?election_id=e1", Role.VOTER);
        assertEquals(200, own.statusCode(), own.body());
        JsonNode ballots = QueryApiTest.JSON.readTree(own.body()).get("ballots");
        assertFalse(ballots.isEmpty());
        for (JsonNode b : ballots) {
            assertEquals(7, b.get("id").asLong() % 50, "only user-7's votes: " + b);
            assertTrue(b.get("proof_bundle").asText().startsWith("c2sp.org/tlog-proof@v1"), b.toString());
        }
        QueryApiTest.assertError(
                403,
                "/boards/" + QueryApiTest.BOARD + "/ballots?election_id=e1&user_id=user-8",
                "own ballots only",
                Role.VOTER);
    }

    @Test
    void noAnonymousAnswerHoldsAPersonalValue() throws Exception {
        List<String> leaks = new ArrayList<>();
        int checked = 0;
        for (String operation : LEAST.keySet()) {
            for (String board : List.of(PRIVATE_BOARD, COMMITTED_BOARD, QueryApiTest.BOARD)) {
                HttpResponse<String> r = call(
                        operation.replace("{board}", board),
                        Role.ANONYMOUS,
                        board.equals(PRIVATE_BOARD) ? 1 : board.equals(COMMITTED_BOARD) ? 0 : 8);
                checked++;
                for (String value : PERSONAL) {
                    if (holds(r.body(), value)) {
                        leaks.add(operation + " on " + board + " (" + r.statusCode() + ") holds " + value);
                    }
                }
            }
        }
        // and the same values do reach an observer, so the scan can see them
        HttpResponse<String> observed = QueryApiTest.get("/boards/" + PRIVATE_BOARD + "/records/0", Role.OBSERVER);
        assertTrue(holds(observed.body(), PERSONAL.get(0)) && holds(observed.body(), PERSONAL.get(4)), observed.body());
        assertTrue(checked > 40);
        assertTrue(leaks.isEmpty(), String.join("\n", leaks));
    }

    @Test
    void aStatementInTheCommittedFormShowsItsValuesToObserversAndNeverInItsStatement() throws Exception {
        HttpResponse<String> observed = QueryApiTest.get("/boards/" + COMMITTED_BOARD + "/records/0", Role.OBSERVER);
        assertEquals(200, observed.statusCode(), observed.body());
        JsonNode r = QueryApiTest.JSON.readTree(observed.body());
        assertEquals(PERSONAL.get(0), r.get("user_id").asText(), "the opened value in the record's column");
        Map<String, String> personal = new TreeMap<>();
        for (JsonNode v : r.get("personal")) {
            personal.put(v.get("path").asText(), v.get("value").asText());
            assertEquals(16, Base64.getDecoder().decode(v.get("salt").asText()).length);
        }
        assertEquals(
                Map.of(
                        "user_id", PERSONAL.get(0),
                        "username", PERSONAL.get(1),
                        "body.ip", PERSONAL.get(4),
                        "body.country", PERSONAL.get(6)),
                personal);
        // the statement (the leaf's entry, what a public entry bundle will carry) holds none of them
        String statement = "\"" + r.get("statement").asText() + "\"";
        for (String value : PERSONAL) {
            assertFalse(holds(statement, value), "the committed statement holds " + value);
        }
        HttpResponse<String> anonymous = QueryApiTest.get("/boards/" + COMMITTED_BOARD + "/records/0", Role.ANONYMOUS);
        for (String value : PERSONAL) {
            assertFalse(holds(anonymous.body(), value), anonymous.statusCode() + " " + anonymous.body());
        }
    }

    /**
     * Entry and signature bundles are anyone's when every entry is in the committed form (issue 46:
     * a board's whole record verifies from them), observers' otherwise, and an observer's copy is
     * never left in a shared cache.
     */
    @Test
    void bundlesArePublicOnlyWhenEveryEntryIsInTheCommittedForm() throws Exception {
        String committed = "/boards/" + COMMITTED_BOARD;
        for (String path : List.of(committed + "/tile/entries/000.p/1", committed + "/signatures/000.p/1")) {
            HttpResponse<String> r = QueryApiTest.get(path, Role.ANONYMOUS);
            assertEquals(200, r.statusCode(), path + ": " + r.body());
            assertEquals(
                    "public, max-age=31536000, immutable",
                    r.headers().firstValue("Cache-Control").orElse(""));
            for (String value : PERSONAL) {
                assertFalse(holds(r.body(), value), path + " holds " + value);
            }
        }
        // the entry is the leaf's: its hash is the level-0 tile's one hash, so the record verifies from it
        byte[] bundle = QueryApiTest.HTTP
                .send(
                        HttpRequest.newBuilder(
                                        URI.create(QueryApiTest.api.baseUrl() + committed + "/tile/entries/000.p/1"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray())
                .body();
        List<byte[]> entries = org.electorallog.core.EntryBundle.decode(bundle);
        assertEquals(1, entries.size());
        assertEquals(2, org.electorallog.statement.CanonicalStatementReader.formatVersion(entries.get(0)));
        byte[] tile = QueryApiTest.HTTP
                .send(
                        HttpRequest.newBuilder(URI.create(QueryApiTest.api.baseUrl() + committed + "/tile/0/000.p/1"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray())
                .body();
        assertArrayEquals(tile, org.electorallog.core.Hashes.leafHash(entries.get(0)));

        String inTheClear = "/boards/" + PRIVATE_BOARD;
        String width = ".p/" + personalStatements().size();
        for (String path : List.of(inTheClear + "/tile/entries/000" + width, inTheClear + "/signatures/000" + width)) {
            HttpResponse<String> anonymous = QueryApiTest.get(path, Role.ANONYMOUS);
            assertEquals(401, anonymous.statusCode(), path);
            assertTrue(anonymous.body().contains("format 1"), anonymous.body());
            assertEquals(403, QueryApiTest.get(path, Role.VOTER).statusCode(), path);
            HttpResponse<String> observed = QueryApiTest.get(path, Role.OBSERVER);
            assertEquals(200, observed.statusCode(), path);
            assertEquals(
                    "private, max-age=31536000, immutable",
                    observed.headers().firstValue("Cache-Control").orElse(""));
        }
    }

    @Test
    void csvCellsThatWouldRunAsFormulasAreNeutralised() throws Exception {
        String csv = QueryApiTest.get("/admin/boards/" + PRIVATE_BOARD + "/export.csv", Role.ANALYST)
                .body();
        assertTrue(csv.contains("\"'=HYPERLINK("), csv);
        assertFalse(csv.contains(",=") || csv.contains("\"="), csv);
    }

    @Test
    void theRateLimitCountsTheClientBehindATrustedProxyOnly() throws Exception {
        org.electorallog.config.DatabaseLogin db =
                org.electorallog.infra.SharedStack.get().database();
        QueryApiSettings base = QueryApiSettings.publicOnly(db, 0)
                .withHttp(HttpSettings.defaults().withLimits(RatePolicy.everyClass(1)));
        // a CIDR range of proxies (issue 41): the loopback network
        try (QueryApi behindProxy = QueryApi.start(base.withAccess(new AccessSettings(
                        Map.of(), null, null, java.util.Set.of(), java.util.Set.of(), List.of("127.0.0.0/8"))));
                QueryApi direct = QueryApi.start(base)) {
            assertEquals(200, boards(behindProxy, "198.51.100.1"));
            assertEquals(200, boards(behindProxy, "198.51.100.2"), "another client behind the proxy");
            assertEquals(429, boards(behindProxy, "198.51.100.1"), "the first client again");
            // a forged hop before the client's own is not believed: the proxy appended the real one
            assertEquals(429, boards(behindProxy, "192.0.2.99, 198.51.100.2"));
            // an IPv6 client is its /64 (issue 61): another address of it shares the limit
            assertEquals(200, boards(behindProxy, "2001:db8:1:2::1"));
            assertEquals(429, boards(behindProxy, "2001:db8:1:2::ffff"), "another address of the same /64");
            assertEquals(200, boards(behindProxy, "2001:db8:1:3::1"), "another /64");
            assertEquals(200, boards(direct, "198.51.100.1"));
            assertEquals(429, boards(direct, "198.51.100.3"), "without trusted proxies X-Forwarded-For is ignored");
        }
    }

    private static int boards(QueryApi api, String forwardedFor) throws Exception {
        return QueryApiTest.HTTP
                .send(
                        HttpRequest.newBuilder(URI.create(api.baseUrl() + "/boards"))
                                .header("X-Forwarded-For", forwardedFor)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    /** Whether a body holds a value as text, or inside any base64 string of it. */
    static boolean holds(String body, String value) {
        if (body.contains(value)) {
            return true;
        }
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("[A-Za-z0-9+/]{16,}={0,2}").matcher(body);
        while (m.find()) {
            try {
                if (new String(Base64.getDecoder().decode(m.group()), StandardCharsets.ISO_8859_1).contains(value)) {
                    return true;
                }
            } catch (IllegalArgumentException notBase64) {
                // not base64 after all: nothing hidden in it
            }
        }
        return false;
    }

    /** Calls a documented operation with working values for its parameters, as a caller of {@code role}. */
    static HttpResponse<String> call(String operation, Role role) throws Exception {
        return call(operation, role, 8);
    }

    static HttpResponse<String> call(String operation, Role role, long recordId) throws Exception {
        String method = operation.substring(0, operation.indexOf(' '));
        String path = operation
                .substring(operation.indexOf(' ') + 1)
                // the bundles of a board in the committed form are anyone's (those of the others: below)
                .replace("{board}", bundle(operation) ? COMMITTED_BOARD : QueryApiTest.BOARD)
                .replace("tile/entries/{path}", "tile/entries/" + tileIndex(operation))
                .replace("signatures/{path}", "signatures/" + tileIndex(operation))
                .replace("tile/{path}", "tile/0/" + tileIndex(operation))
                .replace("vendor/{path}", "vendor/noble-post-quantum/package/ml-dsa.js")
                .replace("audits/{id}", "audits/no-such-audit")
                .replace("{grant}", "999999999")
                .replace("records/{id}", "records/" + recordId);
        if (path.endsWith("/consistency")) {
            path += "?from=1";
        } else if (path.matches("/boards/[^/]+/proof")) {
            path += "?leaf_hash=" + java.util.HexFormat.of().formatHex(QueryApiTest.LEAVES.get((int) recordId));
        } else if (path.endsWith("/deliveries")) {
            path += "?delivery_id=api-" + recordId + "&leaf_hash="
                    + java.util.HexFormat.of().formatHex(QueryApiTest.LEAVES.get((int) recordId));
        } else if (path.endsWith("/ballots")) {
            path += "?election_id=e1" + (role.covers(Role.OBSERVER) ? "&user_id=user-8" : "");
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(QueryApiTest.api.baseUrl() + path));
        if (method.equals("POST")) {
            String body = path.endsWith("/proof")
                    ? QueryApiTest.get("/boards/" + QueryApiTest.BOARD + "/checkpoint")
                            .body()
                    : "";
            b.POST(HttpRequest.BodyPublishers.ofString(body));
        } else {
            b.GET();
        }
        if (role != Role.ANONYMOUS) {
            b.header("Authorization", "Bearer " + QueryApiTest.TOKENS.get(role));
        }
        return QueryApiTest.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The first tile of a board, partial on the private boards (3 records, 1), so that it exists. */
    private static String tileIndex(String operation) {
        if (operation.contains(COMMITTED_BOARD) || bundle(operation) && operation.contains("{board}")) {
            return "000.p/1";
        }
        return operation.contains(PRIVATE_BOARD)
                ? "000.p/" + personalStatements().size()
                : "000";
    }

    /** An entry or signature bundle's route. */
    private static boolean bundle(String operation) {
        return operation.contains("/tile/entries/") || operation.contains("/signatures/");
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
