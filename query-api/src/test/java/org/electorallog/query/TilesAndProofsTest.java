package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofVerifier;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileTree;
import org.electorallog.core.TlogProof;
import org.junit.jupiter.api.Test;

/**
 * C2SP tiles as a plain tiles client sees them, consistency proofs, proofs from a trusted checkpoint
 * (and their 409s), tlog-proof bundles, and the bad-input answers of these endpoints. Uses the board
 * {@link QueryApiTest} loads.
 */
class TilesAndProofsTest {
    static final String BOARD = QueryApiTest.BOARD;
    static final int N = QueryApiTest.N;

    static {
        try {
            QueryApiTest.load();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static List<byte[]> leaves() {
        return QueryApiTest.LEAVES;
    }

    /** GET of a tile or bundle: entry bundles as an observer (they hold whole statements), tiles anonymously. */
    static HttpResponse<byte[]> getBytes(String path) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(QueryApiTest.api.baseUrl() + path))
                .GET();
        if (path.contains("/tile/entries/")) {
            b.header("Authorization", "Bearer " + QueryApiTest.TOKENS.get(Role.OBSERVER));
        }
        return QueryApiTest.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static HttpResponse<String> post(String path, String body) throws Exception {
        return QueryApiTest.HTTP.send(
                HttpRequest.newBuilder(URI.create(QueryApiTest.api.baseUrl() + path))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static byte[] root(int size) {
        TileTree t = TileTree.empty();
        leaves().subList(0, size).forEach(t::appendLeafHash);
        return t.root();
    }

    static List<byte[]> hashes(JsonNode arr) {
        List<byte[]> out = new ArrayList<>();
        arr.forEach(h -> out.add(Base64.getDecoder().decode(h.asText())));
        return out;
    }

    @Test
    void aPlainTilesClientVerifiesARecordFromTheCheckpointTilesAndEntriesAlone() throws Exception {
        NoteVerifier key = NoteVerifier.parse(QueryApiTest.SIGNER.verifierKey());
        Checkpoint cp = Checkpoint.open(
                QueryApiTest.get("/boards/" + BOARD + "/checkpoint").body(), List.of(key));
        String prefix = "/boards/" + BOARD + "/";
        Map<String, Integer> fetched = new HashMap<>();
        for (long index : new long[] {0, 255, 256, 600, cp.size() - 1}) {
            List<byte[]> proof = ProofBuilder.inclusion(index, cp.size(), keys -> {
                Map<TileKey, byte[]> out = new HashMap<>();
                for (TileKey k : keys) {
                    int width = TileLayout.width(k.level(), k.index(), cp.size());
                    String path = TileLayout.tilePath(k.level(), k.index(), width);
                    try {
                        HttpResponse<byte[]> r = getBytes(prefix + path);
                        assertEquals(200, r.statusCode(), path);
                        assertTrue(r.headers()
                                .firstValue("cache-control")
                                .orElse("")
                                .contains("immutable"));
                        assertEquals(width * 32, r.body().length, path);
                        fetched.merge(path, 1, Integer::sum);
                        out.put(k, r.body());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
                return out;
            });
            long bundle = index / 256;
            int width = TileLayout.width(0, bundle, cp.size());
            HttpResponse<byte[]> r = getBytes(prefix + TileLayout.entriesPath(bundle, width));
            assertEquals(200, r.statusCode());
            List<byte[]> entries = EntryBundle.decode(r.body());
            assertEquals(width, entries.size());
            byte[] leaf = Hashes.leafHash(entries.get((int) (index % 256)));
            assertArrayEquals(leaves().get((int) index), leaf);
            ProofVerifier.verifyInclusion(index, cp.size(), leaf, proof, cp.root());
        }
        assertTrue(!fetched.isEmpty());
    }

    /**
     * Issue 45 item 2: a full tile, once read, is served from memory. The stored tile is then
     * overwritten behind the API's back: the API still serves the tile it read (full, and any
     * partial width as its prefix), which only memory can do, and counts the hits in /metrics.
     */
    @Test
    void aFullTileOnceReadIsServedFromMemory() throws Exception {
        byte[] tile = getBytes("/boards/" + BOARD + "/tile/0/000").body();
        assertEquals(8192, tile.length);
        org.electorallog.config.DatabaseLogin db =
                org.electorallog.infra.SharedStack.get().database();
        String update = "UPDATE tiles SET hashes = ? WHERE level = 0 AND idx = 0 "
                + "AND board_id = (SELECT board_id FROM boards WHERE name = ?)";
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                java.sql.PreparedStatement ps = c.prepareStatement(update)) {
            ps.setBytes(1, new byte[8192]);
            ps.setString(2, BOARD);
            assertEquals(1, ps.executeUpdate());
            try {
                assertArrayEquals(
                        tile, getBytes("/boards/" + BOARD + "/tile/0/000").body());
                assertArrayEquals(
                        java.util.Arrays.copyOf(tile, 5 * 32),
                        getBytes("/boards/" + BOARD + "/tile/0/000.p/5").body());
            } finally {
                ps.setBytes(1, tile);
                assertEquals(1, ps.executeUpdate());
            }
        }
        String metrics = QueryApiTest.get("/metrics", Role.ADMIN).body();
        java.util.regex.Matcher hits = java.util.regex.Pattern.compile(
                        "(?m)^electoral_log_full_tiles_hits_total (\\S+)$")
                .matcher(metrics);
        assertTrue(hits.find() && Double.parseDouble(hits.group(1)) >= 2, metrics);
    }

    @Test
    void consistencyProofsVerify() throws Exception {
        JsonNode c = QueryApiTest.JSON.readTree(
                QueryApiTest.get("/boards/" + BOARD + "/consistency?from=300").body());
        assertEquals(N, c.get("to").asLong());
        ProofVerifier.verifyConsistency(300, N, root(300), root(N), hashes(c.get("hashes")));
        assertArrayEquals(
                root(300), Base64.getDecoder().decode(c.get("from_root").asText()));
        // to the latest checkpoint: its signed root; to any other size: folded from the tiles
        assertArrayEquals(root(N), Base64.getDecoder().decode(c.get("to_root").asText()));
        JsonNode c2 = QueryApiTest.JSON.readTree(QueryApiTest.get("/boards/" + BOARD + "/consistency?from=17&to=512")
                .body());
        ProofVerifier.verifyConsistency(17, 512, root(17), root(512), hashes(c2.get("hashes")));
        assertArrayEquals(
                root(17), Base64.getDecoder().decode(c2.get("from_root").asText()));
        assertArrayEquals(
                root(512), Base64.getDecoder().decode(c2.get("to_root").asText()));
    }

    @Test
    void proofsFromATrustedCheckpointVerifyAndDivergenceIs409() throws Exception {
        NoteSigner log = QueryApiTest.SIGNER;
        String origin = "api-test.electoral-log.local/" + BOARD;
        String trusted300 = new Checkpoint(origin, 300, root(300)).sign(log);
        // a record below the trusted size: inclusion at that size only
        JsonNode below = QueryApiTest.JSON.readTree(
                post("/boards/" + BOARD + "/records/5/proof", trusted300).body());
        assertEquals(300, below.get("size").asLong());
        assertEquals(0, below.get("consistency").size());
        ProofVerifier.verifyInclusion(5, 300, leaves().get(5), hashes(below.get("inclusion")), root(300));
        assertArrayEquals(
                leaves().get(5),
                Base64.getDecoder().decode(below.get("leaf_hash").asText()),
                "the record's leaf hash");
        // a record above it: inclusion at the latest checkpoint plus consistency from the trusted size
        HttpResponse<String> r = post("/boards/" + BOARD + "/records/500/proof", trusted300);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode above = QueryApiTest.JSON.readTree(r.body());
        assertEquals(N, above.get("size").asLong());
        Checkpoint latest =
                Checkpoint.open(above.get("checkpoint").asText(), List.of(NoteVerifier.parse(log.verifierKey())));
        ProofVerifier.verifyConsistency(300, N, root(300), latest.root(), hashes(above.get("consistency")));
        ProofVerifier.verifyInclusion(500, N, leaves().get(500), hashes(above.get("inclusion")), latest.root());
        assertArrayEquals(
                leaves().get(500),
                Base64.getDecoder().decode(above.get("leaf_hash").asText()));

        QueryApiTest.assertError(
                409,
                post(
                        "/boards/" + BOARD + "/records/5/proof",
                        new Checkpoint("api-test.electoral-log.local/other-board", 300, root(300)).sign(log)),
                "origin");
        byte[] forged = root(300).clone();
        forged[0] ^= 1;
        QueryApiTest.assertError(
                409,
                post("/boards/" + BOARD + "/records/5/proof", new Checkpoint(origin, 300, forged).sign(log)),
                "differs from the trusted checkpoint");
        QueryApiTest.assertError(
                409,
                post("/boards/" + BOARD + "/records/5/proof", new Checkpoint(origin, N + 10, root(N)).sign(log)),
                "has only " + N);
        // the refusals of the one statement a proof from a trusted checkpoint is (decision 72)
        QueryApiTest.assertError(
                400,
                post("/boards/" + BOARD + "/records/5/proof", new Checkpoint(origin, 0, root(300)).sign(log)),
                "a trusted checkpoint of size 0 proves nothing");
        QueryApiTest.assertError(
                404, post("/boards/" + BOARD + "/records/" + N + "/proof", trusted300), "is not yet in a checkpoint");
        QueryApiTest.assertError(
                404,
                post("/boards/" + BOARD + "/records/" + 999_999_999_999_999_999L + "/proof", trusted300),
                "is not yet in a checkpoint");
        QueryApiTest.assertError(
                404,
                post("/boards/no-such-board/records/5/proof", trusted300),
                "there is no board named 'no-such-board'");
        QueryApiTest.assertError(
                400, post("/boards/" + BOARD + "/records/5/proof", "not a note"), "signed checkpoint note");
        QueryApiTest.assertError(400, post("/boards/" + BOARD + "/records/5/proof", " "), "the body must be");
        QueryApiTest.assertError(413, post("/boards/" + BOARD + "/records/5/proof", "x".repeat(70_000)), "");
    }

    @Test
    void proofBundlesVerifyOffline() throws Exception {
        HttpResponse<String> r = QueryApiTest.get("/boards/" + BOARD + "/records/123/proof-bundle");
        assertEquals(200, r.statusCode());
        TlogProof p = TlogProof.parse(r.body());
        assertEquals(123, p.index());
        Checkpoint cp = p.verify(
                leaves().get(123),
                "api-test.electoral-log.local/" + BOARD,
                List.of(NoteVerifier.parse(QueryApiTest.SIGNER.verifierKey())),
                List.of());
        assertEquals(N, cp.size());
    }

    @Test
    void badTileAndConsistencyRequestsGetA4xx() throws Exception {
        QueryApiTest.assertError(400, "/boards/" + BOARD + "/tile/0/5", "three digits");
        QueryApiTest.assertError(400, "/boards/" + BOARD + "/tile/9/000", "level");
        QueryApiTest.assertError(400, "/boards/" + BOARD + "/tile/0/000.p/300", "partial tile width");
        QueryApiTest.assertError(404, "/boards/" + BOARD + "/tile/0/004", "does not exist yet");
        QueryApiTest.assertError(
                404, "/boards/" + BOARD + "/tile/entries/003.p/10", "does not exist yet", Role.OBSERVER);
        QueryApiTest.assertError(
                401,
                "/boards/" + BOARD + "/tile/entries/000",
                "personal values in the clear (format 1): observers only");
        QueryApiTest.assertError(400, "/boards/" + BOARD + "/consistency", "from is required");
        QueryApiTest.assertError(
                400, "/boards/" + BOARD + "/consistency?from=500&to=400", "from must be between 1 and to");
        QueryApiTest.assertError(400, "/boards/" + BOARD + "/consistency?from=0", "from must be between 1 and to");
        // the refusals of the one statement a consistency proof to the latest checkpoint is (decision 72)
        QueryApiTest.assertError(
                400, "/boards/" + BOARD + "/consistency?from=" + (N + 1), "from must be between 1 and to (" + N + ")");
        QueryApiTest.assertError(
                400,
                "/boards/" + BOARD + "/consistency?from=" + 999_999_999_999_999_999L,
                "from must be between 1 and to");
        QueryApiTest.assertError(
                404, "/boards/no-such-board/consistency?from=1", "there is no board named 'no-such-board'");
        QueryApiTest.assertError(400, "/boards/" + BOARD + "/consistency?from=1&to=99999", "to must be between 1 and");
        QueryApiTest.assertError(
                404, "/boards/" + BOARD + "/records/" + N + "/proof-bundle", "not yet in a checkpoint");
    }

    @Test
    void theOpenApiDocumentListsTheEndpoints() throws Exception {
        JsonNode doc =
                QueryApiTest.JSON.readTree(QueryApiTest.get("/openapi.json").body());
        assertEquals("3.0.3", doc.get("openapi").asText());
        for (String path : new String[] {
            "/boards",
            "/boards/{board}/checkpoint",
            "/boards/{board}/tile/{path}",
            "/boards/{board}/records/{id}/proof",
            "/boards/{board}/consistency",
            "/boards/{board}/records/{id}/proof-bundle"
        }) {
            assertTrue(doc.get("paths").has(path), path);
        }
    }
}
