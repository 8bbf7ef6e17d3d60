package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GET /boards/{board}/deliveries?delivery_id=&leaf_hash= (issue 61 item 7): a sender learns where its
 * statement was recorded by its delivery ID and leaf hash; any other leaf hash, an unknown ID or
 * board is a 404 that tells nothing more, and a malformed hash a 400.
 */
class DeliveryRouteTest {
    @BeforeAll
    static void load() throws Exception {
        QueryApiTest.load();
    }

    @Test
    void aStatementIsFoundByItsDeliveryIdAndLeafHashOnly() throws Exception {
        byte[] leaf = QueryApiTest.LEAVES.get(12);
        HttpResponse<String> r =
                QueryApiTest.get("/boards/" + QueryApiTest.BOARD + "/deliveries?delivery_id=api-12&leaf_hash="
                        + Base64.getUrlEncoder().withoutPadding().encodeToString(leaf));
        assertEquals(200, r.statusCode(), r.body());
        JsonNode d = QueryApiTest.JSON.readTree(r.body());
        assertEquals(12, d.get("record").asLong());
        assertEquals("api-12", d.get("delivery_id").asText());
        assertEquals(
                Base64.getEncoder().encodeToString(leaf), d.get("leaf_hash").asText());

        // another statement's leaf hash: the same 404 as an ID nobody used
        String other = HexFormat.of().formatHex(QueryApiTest.LEAVES.get(13));
        HttpResponse<String> wrong =
                QueryApiTest.get("/boards/" + QueryApiTest.BOARD + "/deliveries?delivery_id=api-12&leaf_hash=" + other);
        HttpResponse<String> unknown = QueryApiTest.get(
                "/boards/" + QueryApiTest.BOARD + "/deliveries?delivery_id=no-such-id&leaf_hash=" + other);
        assertEquals(404, wrong.statusCode(), wrong.body());
        assertEquals(404, unknown.statusCode(), unknown.body());
        assertEquals(
                QueryApiTest.JSON.readTree(wrong.body()).get("title"),
                QueryApiTest.JSON.readTree(unknown.body()).get("title"));
        assertEquals(
                404,
                QueryApiTest.get("/boards/no-such-board/deliveries?delivery_id=api-12&leaf_hash=" + other)
                        .statusCode());

        HttpResponse<String> bad =
                QueryApiTest.get("/boards/" + QueryApiTest.BOARD + "/deliveries?delivery_id=api-12&leaf_hash=abc");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.body().contains("leaf_hash"), bad.body());
        assertEquals(
                400,
                QueryApiTest.get("/boards/" + QueryApiTest.BOARD + "/deliveries?delivery_id=api-12")
                        .statusCode());
    }
}
