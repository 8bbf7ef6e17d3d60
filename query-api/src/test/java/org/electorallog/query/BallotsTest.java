package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.TlogProof;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/** The ballot locator (keyset pages with tamper-evident cursors) and its plan; counts from counters. */
class BallotsTest {
    static {
        try {
            QueryApiTest.load();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** The locator as an observer, who may look up any user ID (voters: AccessTest). */
    static java.net.http.HttpResponse<String> asObserver(String path) throws Exception {
        return QueryApiTest.get(path, Role.OBSERVER);
    }

    static void assertObserverError(int status, String path, String detail) throws Exception {
        QueryApiTest.assertError(status, path, detail, Role.OBSERVER);
    }

    @Test
    void aVoterPagesThroughTheirOwnCastVotesNewestFirst() throws Exception {
        List<Long> expected = new ArrayList<>();
        for (int i = QueryApiTest.N - 1; i >= 0; i--) {
            if (i % 50 == 7 && i % 3 == 1) {
                expected.add((long) i);
            }
        }
        assertTrue(expected.size() >= 4);
        List<Long> seen = new ArrayList<>();
        String path = "/boards/" + QueryApiTest.BOARD + "/ballots?user_id=user-7&election_id=e1&limit=2";
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = QueryApiTest.JSON.readTree(asObserver(path + (cursor == null ? "" : "&cursor=" + cursor))
                    .body());
            page.get("ballots").forEach(b -> {
                seen.add(b.get("id").asLong());
                assertEquals("CAST_VOTE", b.get("kind").asText());
                assertEquals("b" + b.get("id").asLong(), b.get("ballot_id").asText());
            });
            cursor = page.get("next_cursor").isNull()
                    ? null
                    : page.get("next_cursor").asText();
            pages++;
        } while (cursor != null && pages < 100);
        assertEquals(expected, seen);
        JsonNode one = QueryApiTest.JSON.readTree(asObserver("/boards/" + QueryApiTest.BOARD
                        + "/ballots?user_id=user-7&election_id=e1&ballot_id=b" + expected.get(1))
                .body());
        assertEquals(1, one.get("ballots").size());
        assertEquals(expected.get(1), one.get("ballots").get(0).get("id").asLong());
    }

    @Test
    void everyBundleOfAPageVerifiesOfflineFromTheOneTileQuery() throws Exception {
        // a page of several votes far apart: their bundles' tiles are read in one query (decision 73)
        java.net.http.HttpResponse<String> r =
                asObserver("/boards/" + QueryApiTest.BOARD + "/ballots?user_id=user-7&election_id=e1&limit=50");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode page = QueryApiTest.JSON.readTree(r.body());
        JsonNode ballots = page.get("ballots");
        assertTrue(ballots.size() >= 4, page.toString());
        for (JsonNode b : ballots) {
            long id = b.get("id").asLong();
            TlogProof p = TlogProof.parse(b.get("proof_bundle").asText());
            assertEquals(id, p.index());
            Checkpoint cp = p.verify(
                    QueryApiTest.LEAVES.get((int) id),
                    "api-test.electoral-log.local/" + QueryApiTest.BOARD,
                    List.of(NoteVerifier.parse(QueryApiTest.SIGNER.verifierKey())),
                    List.of());
            assertEquals(QueryApiTest.N, cp.size(), "vote " + id);
            // another vote's leaf does not verify with this bundle
            long other = ballots.get(0).get("id").asLong() == id
                    ? ballots.get(1).get("id").asLong()
                    : ballots.get(0).get("id").asLong();
            assertThrows(
                    ProofException.class,
                    () -> p.verify(
                            QueryApiTest.LEAVES.get((int) other),
                            "api-test.electoral-log.local/" + QueryApiTest.BOARD,
                            List.of(NoteVerifier.parse(QueryApiTest.SIGNER.verifierKey())),
                            List.of()));
        }
    }

    @Test
    void editedOrForeignCursorsAndBadFiltersAre400AndPatternsMatchNothing() throws Exception {
        String base = "/boards/" + QueryApiTest.BOARD + "/ballots?user_id=user-7&election_id=e1&limit=1";
        String cursor = QueryApiTest.JSON
                .readTree(asObserver(base).body())
                .get("next_cursor")
                .asText();
        char[] edited = cursor.toCharArray();
        edited[3] = edited[3] == 'A' ? 'B' : 'A';
        assertObserverError(400, base + "&cursor=" + new String(edited), "altered");
        assertObserverError(
                400,
                "/boards/" + QueryApiTest.BOARD + "/ballots?user_id=user-8&election_id=e1&limit=1&cursor=" + cursor,
                "another query");
        assertObserverError(400, base + "&cursor=" + enc("%%%"), "bad encoding");
        assertObserverError(400, "/boards/" + QueryApiTest.BOARD + "/ballots?election_id=e1", "user_id is required");
        assertObserverError(400, base.replace("limit=1", "limit=0"), "limit must be between 1 and 1000");
        assertObserverError(400, base.replace("limit=1", "limit=1001"), "limit must be between 1 and 1000");
        assertObserverError(
                400,
                "/boards/" + QueryApiTest.BOARD + "/ballots?election_id=e1&user_id=" + "x".repeat(300),
                "longer than 256");
        for (String hostile : new String[] {"%", "_", "user-%", "' OR '1'='1", "user-7'; DROP TABLE records; --"}) {
            var r = asObserver("/boards/" + QueryApiTest.BOARD + "/ballots?election_id=e1&user_id=" + enc(hostile));
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(0, QueryApiTest.JSON.readTree(r.body()).get("ballots").size(), hostile);
        }
    }

    @Test
    void theLocatorPageReadsOnlyTheVotersOwnRows() throws Exception {
        DatabaseLogin db = SharedStack.get().database();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            c.createStatement().execute("ANALYZE records");
            short boardId;
            try (ResultSet rs = c.createStatement()
                    .executeQuery("SELECT board_id FROM boards WHERE name = '" + QueryApiTest.BOARD + "'")) {
                if (!rs.next()) {
                    throw new AssertionError("the query returned no row");
                }
                boardId = rs.getShort(1);
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + org.electorallog.store.Records.BALLOTS_SQL)) {
                ps.setShort(1, boardId);
                ps.setShort(2, org.electorallog.statement.StatementKinds.CAST_VOTE);
                ps.setString(3, "user-7");
                ps.setString(4, "e1");
                ps.setLong(5, Long.MAX_VALUE);
                ps.setString(6, null);
                ps.setString(7, null);
                ps.setInt(8, 2);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new AssertionError("the query returned no row");
                    }
                    JsonNode plan =
                            QueryApiTest.JSON.readTree(rs.getString(1)).get(0).get("Plan");
                    long read = rowsRead(plan);
                    long own = QueryApiTest.N / 50 + 1;
                    // the voter's own rows (about N/50 here), each read once by the index scan and once by the sort
                    assertTrue(
                            read <= 2 * own + 2,
                            "a 2-row locator page read " + read + " rows for a voter with " + own + ": " + plan);
                    assertTrue(plan.toString().contains("records_user"), "served by the user index: " + plan);
                }
            }
        }
    }

    static long rowsRead(JsonNode node) {
        // Append and Merge Append, the union of a board's records partitions (V15), pass their
        // children's rows on: those are counted where they are read, not again here
        String type = node.path("Node Type").asText();
        boolean union = type.equals("Append") || type.equals("Merge Append");
        // "Actual Rows" is a per-loop average: PostgreSQL 18 gives it with decimals (0.94), before 18 it
        // is rounded to a whole number; either way, times the loops is the node's total
        long n = union
                ? 0
                : Math.round(node.path("Actual Rows").asDouble()
                                * Math.max(1, node.path("Actual Loops").asLong()))
                        + node.path("Rows Removed by Filter").asLong()
                        + node.path("Rows Removed by Index Recheck").asLong();
        for (JsonNode child : node.path("Plans")) {
            n += rowsRead(child);
        }
        return n;
    }
}
