package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.TileTree;
import org.electorallog.infra.SharedStack;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.RecordExports;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The admin record listing (keyset pages by ID, created windows) and the exports, which verify offline. */
class ListingAndExportsTest {
    static final String TOKEN = "listing-token-0123456789";
    static QueryApi admin;

    @BeforeAll
    static void start() throws Exception {
        QueryApiTest.load();
        DatabaseLogin db = SharedStack.get().database();
        admin = QueryApi.start(QueryApiSettings.publicOnly(db, 0)
                .withAdminToken(TOKEN)
                .withHttp(HttpSettings.defaults().withLimits(RatePolicy.unlimited())));
    }

    @AfterAll
    static void stop() {
        admin.close();
    }

    static HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        HttpRequest.newBuilder(URI.create(admin.baseUrl() + path))
                                .header("Authorization", "Bearer " + TOKEN)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    static List<JsonNode> all(String path) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        String cursor = null;
        for (int pages = 0; pages < 1000; pages++) {
            HttpResponse<String> r = get(path + (cursor == null ? "" : "&cursor=" + cursor));
            assertEquals(200, r.statusCode(), r.body());
            JsonNode page = QueryApiTest.JSON.readTree(r.body());
            page.get("records").forEach(out::add);
            if (page.get("next_cursor").isNull()) {
                return out;
            }
            cursor = page.get("next_cursor").asText();
        }
        throw new AssertionError("too many pages");
    }

    static final String RECORDS = "/admin/boards/" + QueryApiTest.BOARD + "/records";

    @Test
    void pagesWalkTheWholeBoardInEitherOrder() throws Exception {
        List<JsonNode> desc = all(RECORDS + "?limit=100");
        assertEquals(QueryApiTest.N, desc.size());
        for (int i = 0; i < desc.size(); i++) {
            assertEquals(QueryApiTest.N - 1 - i, desc.get(i).get("id").asLong());
        }
        List<JsonNode> asc = all(RECORDS + "?order=asc&sort=created&limit=333");
        for (int i = 0; i < asc.size(); i++) {
            assertEquals(i, asc.get(i).get("id").asLong());
        }
        assertEquals(QueryApiTest.N, asc.size());
        List<JsonNode> range = all(RECORDS + "?order=asc&from_id=10&to_id=20&limit=4");
        assertEquals(10, range.size());
        assertEquals(10, range.get(0).get("id").asLong());
        assertArrayEquals(
                QueryApiTest.LEAVES.get(10),
                java.util.Base64.getDecoder()
                        .decode(range.get(0).get("leaf_hash").asText()));

        // a created window is the ID range of the records created in it
        String c300 = asc.get(300).get("created").asText();
        String c500 = asc.get(500).get("created").asText();
        // compare as instants: Instant.toString drops trailing zeros, so the text does not sort
        java.time.Instant t300 = java.time.Instant.parse(c300);
        java.time.Instant t500 = java.time.Instant.parse(c500);
        long first = asc.stream()
                .filter(n -> !java.time.Instant.parse(n.get("created").asText()).isBefore(t300))
                .findFirst()
                .orElseThrow()
                .get("id")
                .asLong();
        long end = asc.stream()
                .filter(n -> !java.time.Instant.parse(n.get("created").asText()).isBefore(t500))
                .findFirst()
                .orElseThrow()
                .get("id")
                .asLong();
        List<JsonNode> window =
                all(RECORDS + "?order=asc&created_from=" + c300 + "&created_to=" + c500 + "&limit=1000");
        assertEquals(end - first, window.size());
        assertEquals(first, window.get(0).get("id").asLong());
    }

    @Test
    void unservedFiltersAndBadInputAre400() throws Exception {
        assertRefused(RECORDS + "?kind=BALLOT_STUFFING", "not a statement kind");
        assertRefused(RECORDS + "?sort=username&kind=CAST_VOTE", "sort=<column> with a filter on that column");
        assertRefused(RECORDS + "?sort=statement_time&from_id=3", "sort=<column> with a filter on that column");
        assertRefused(RECORDS + "?sort=colour", "cannot sort by");
        assertRefused(RECORDS + "?kind=CAST_VOTE&kind=IDP_USER_EVENT", "given 2 times");
        assertRefused(RECORDS + "?sender_key=abc", "32-byte Ed25519 public key");
        assertRefused(RECORDS + "?with_user=false", "with_user takes only 'true'");
        assertRefused(RECORDS + "?visible_elections=a,,b", "empty value");
        assertRefused(RECORDS + "?visible_areas=" + "a,".repeat(150) + "a", "at most 100");
        assertRefused(RECORDS + "?user_id=" + "x".repeat(300), "longer than 256");
        assertRefused(RECORDS + "?from_id=99999999999999999999", "non-negative whole number");
        assertRefused(RECORDS + "/count?area_id=area-1", "no bounded count");
        assertRefused(RECORDS + "/count?limit=3", "filters only");
        assertRefused(RECORDS + "?colour=blue", "unknown parameter");
        assertRefused(RECORDS + "?order=sideways", "order must be");
        assertRefused(RECORDS + "?created_from=yesterday", "ISO-8601");
        assertRefused(RECORDS + "?from_id=-3", "non-negative");
        assertRefused(RECORDS + "?limit=5000", "limit must be");
        String cursor = QueryApiTest.JSON
                .readTree(get(RECORDS + "?limit=5").body())
                .get("next_cursor")
                .asText();
        assertRefused(RECORDS + "?limit=5&order=asc&cursor=" + cursor, "another query");
    }

    @Test
    void filterValuesAreMatchedLiterallyNeverAsPatternsOrSql() throws Exception {
        for (String p : new String[] {"user_id", "username", "area_id", "election_id", "ballot_id"}) {
            for (String hostile :
                    new String[] {"%", "_", "user-%", "' OR '1'='1", "x'; DROP TABLE records; --", "\\"}) {
                HttpResponse<String> r = get(RECORDS + "?" + p + "="
                        + java.net.URLEncoder.encode(hostile, java.nio.charset.StandardCharsets.UTF_8));
                assertEquals(200, r.statusCode(), p + "=" + hostile + " -> " + r.body());
                assertEquals(
                        0, QueryApiTest.JSON.readTree(r.body()).get("records").size(), p + "=" + hostile);
            }
        }
    }

    static void assertRefused(String path, String detail) throws Exception {
        HttpResponse<String> r = get(path);
        assertEquals(400, r.statusCode(), path + " -> " + r.body());
        assertTrue(
                QueryApiTest.JSON.readTree(r.body()).get("detail").asText().contains(detail), path + " -> " + r.body());
    }

    @Test
    void exportsStreamEveryRecordAndTheJsonlExportVerifiesOffline() throws Exception {
        String csv = get("/admin/boards/" + QueryApiTest.BOARD + "/export.csv").body();
        String[] lines = csv.split("\r\n");
        assertEquals(QueryApiTest.N + 1, lines.length);
        assertTrue(lines[0].startsWith("id,created,statement_time,kind,user_id"));
        assertTrue(lines[0].endsWith(",leaf_hash"), lines[0]);
        for (int i = 1; i < lines.length; i++) {
            String[] cells = lines[i].split(",", -1);
            assertEquals(11, cells.length);
            assertEquals(Long.toString(i - 1), cells[0]);
            // the CSV reads no statements: its leaf hashes are the tree's level-0 tile entries
            assertEquals(Base64.getEncoder().encodeToString(QueryApiTest.LEAVES.get(i - 1)), cells[10], lines[i]);
        }

        String[] jsonl = get("/admin/boards/" + QueryApiTest.BOARD + "/export.jsonl")
                .body()
                .split("\n");
        JsonNode manifest = QueryApiTest.JSON.readTree(jsonl[0]).get("manifest");
        assertEquals(QueryApiTest.N, manifest.get("size").asLong());
        Checkpoint cp = Checkpoint.open(
                manifest.get("checkpoint").asText(), List.of(NoteVerifier.parse(QueryApiTest.SIGNER.verifierKey())));
        TileTree tree = TileTree.empty();
        for (int i = 1; i < jsonl.length; i++) {
            JsonNode rec = QueryApiTest.JSON.readTree(jsonl[i]);
            assertEquals(i - 1, rec.get("id").asLong());
            tree.appendLeafHash(Hashes.leafHash(
                    Base64.getDecoder().decode(rec.get("statement").asText())));
        }
        assertArrayEquals(cp.root(), tree.root(), "the exported statements give the signed root");

        String[] votes = get("/admin/boards/" + QueryApiTest.BOARD + "/votes.jsonl")
                .body()
                .split("\n");
        assertEquals(QueryApiTest.N, votes.length);
        for (int i = 0; i < votes.length; i++) {
            JsonNode vote = QueryApiTest.JSON.readTree(votes[i]);
            assertEquals("CAST_VOTE", vote.get("kind").asText());
            assertEquals(
                    Base64.getEncoder().encodeToString(QueryApiTest.LEAVES.get(i)),
                    vote.get("leaf_hash").asText());
            assertTrue(vote.get("statement") == null, "the cast-vote export carries no statements");
        }
        assertEquals(
                401,
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(admin.baseUrl() + "/admin/boards/"
                                                + QueryApiTest.BOARD + "/export.csv"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode());
    }

    /** Every record once, in ID order, across batch edges and tile edges, with the leaf hash the tree holds. */
    @Test
    void exportBatchesCarryTheTreesLeafHashesAcrossBatchAndTileEdges() throws Exception {
        DatabaseLogin db = SharedStack.get().database();
        // an export takes a connection a batch: pooled, as the API's are
        try (com.zaxxer.hikari.HikariDataSource ds = org.electorallog.store.ProjectionDatabase.pool(
                db.jdbcUrl(), db.user(), db.password(), 2, "export-test")) {
            exportBatches(ds);
        }
    }

    private static void exportBatches(javax.sql.DataSource ds) throws Exception {
        short board = boardId(ds, QueryApiTest.BOARD);
        List<String> leaves = QueryApiTest.LEAVES.stream()
                .map(h -> Base64.getEncoder().encodeToString(h))
                .toList();
        // 777 records: level-0 tiles 0 and 1 full, tile 2 partial; batches of 7 and 100 cross both edges
        for (RecordExports.ExportShape shape : List.of(
                RecordExports.ExportShape.FIELDS,
                RecordExports.ExportShape.STATEMENTS,
                RecordExports.ExportShape.fieldsOf(StatementKinds.CAST_VOTE))) {
            for (int batch : new int[] {7, 100, 2500}) {
                for (long size : new long[] {QueryApiTest.N, 300}) {
                    List<Long> ids = new ArrayList<>();
                    List<String> hashes = new ArrayList<>();
                    RecordExports.<RuntimeException>export(
                            ds, board, QueryApiTest.BOARD, size, batch, shape, (r, leaf) -> {
                                ids.add(r.id());
                                hashes.add(Base64.getEncoder().encodeToString(leaf));
                                assertEquals(shape.statements(), r.statement() != null);
                                if (shape.statements()) {
                                    assertArrayEquals(Hashes.leafHash(r.statement()), leaf);
                                }
                            });
                    String what = shape + ", batches of " + batch + ", size " + size;
                    assertEquals(
                            java.util.stream.LongStream.range(0, size).boxed().toList(), ids, what);
                    assertEquals(leaves.subList(0, (int) size), hashes, what);
                }
            }
        }
        // a board of several kinds: the kind's records alone, with the leaf hashes the full export gives them
        short mixed = boardId(ds, AccessTest.PRIVATE_BOARD);
        long size = AccessTest.personalStatements().size();
        java.util.Map<Long, String> all = new java.util.LinkedHashMap<>();
        java.util.Map<Long, Short> kinds = new java.util.HashMap<>();
        RecordExports.<RuntimeException>export(
                ds, mixed, AccessTest.PRIVATE_BOARD, size, 2, RecordExports.ExportShape.STATEMENTS, (r, leaf) -> {
                    all.put(r.id(), Base64.getEncoder().encodeToString(leaf));
                    kinds.put(r.id(), r.kind());
                });
        assertEquals(size, all.size());
        short login = (short) StatementKinds.code("IDP_USER_EVENT");
        java.util.Map<Long, String> logins = new java.util.LinkedHashMap<>();
        RecordExports.<RuntimeException>export(
                ds,
                mixed,
                AccessTest.PRIVATE_BOARD,
                size,
                1,
                RecordExports.ExportShape.fieldsOf(login),
                (r, leaf) -> logins.put(r.id(), Base64.getEncoder().encodeToString(leaf)));
        java.util.Map<Long, String> expected = new java.util.LinkedHashMap<>();
        all.forEach((id, leaf) -> {
            if (kinds.get(id) == login) {
                expected.put(id, leaf);
            }
        });
        assertTrue(!expected.isEmpty() && expected.size() < size, "the board holds logins and other kinds");
        assertEquals(expected, logins);
    }

    /** A record whose leaf is missing from the tiles is a damaged projection: the export stops and says so. */
    @Test
    void anExportStopsOnARecordWithoutItsLeafHash() throws Exception {
        DatabaseLogin db = SharedStack.get().database();
        try (Connection c = java.sql.DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            c.setAutoCommit(false);
            short board = org.electorallog.store.Boards.find(c, QueryApiTest.BOARD)
                    .orElseThrow()
                    .id();
            try (java.sql.PreparedStatement ps =
                    c.prepareStatement("DELETE FROM tiles WHERE board_id = ? AND level = 0 AND idx = 1")) {
                ps.setShort(1, board);
                assertEquals(1, ps.executeUpdate());
            }
            try {
                IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(
                        IllegalStateException.class,
                        () -> RecordExports.<RuntimeException>exportBatch(
                                c,
                                board,
                                QueryApiTest.BOARD,
                                200,
                                QueryApiTest.N,
                                100,
                                RecordExports.ExportShape.FIELDS,
                                (r, leaf) -> {}));
                assertTrue(
                        e.getMessage().contains("record 256 but no leaf hash for it in level-0 tile 1"),
                        e.getMessage());
                assertTrue(e.getMessage().contains("electoral-log audit"), e.getMessage());
            } finally {
                c.rollback();
            }
        }
    }

    static short boardId(javax.sql.DataSource ds, String name) throws Exception {
        try (Connection c = ds.getConnection()) {
            return org.electorallog.store.Boards.find(c, name)
                    .orElseThrow(() -> new AssertionError("no board " + name))
                    .id();
        }
    }
}
